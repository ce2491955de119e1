import { useMemo, useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { clientSortFields, type Client } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { PlainActionGroup, PlainAnchorLink, PlainSubtleButton } from '../../components/plain-controls';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { emptySelection, type SelectionState } from '../../lib/selection';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { lazyDialog } from '../../components/lazy-dialog';
import { clientListQueryOptions, useDeleteClient } from './clients-api';
import { clientFieldColumns } from './client-fields-view';

const CapRosterModal = lazyDialog(async () => (await import('./cap-roster-modal')).CapRosterModal);
const ClientFormModal = lazyDialog(async () => (await import('./client-form-modal')).ClientFormModal);

const clientId = (client: Client) => client.id;

/** Project Management: the provider's clients. */
export function ClientsListPage() {
  const { t } = useTranslation();
  const list = useListState({ sortable: clientSortFields });
  const [selection, setSelection] = useState<SelectionState>(emptySelection);
  const [editing, setEditing] = useState<Client | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Client | null>(null);
  const [rosterOpen, setRosterOpen] = useState(false);
  const clients = useQuery(clientListQueryOptions(list.query));
  const { table, search } = useListTable(list, clients, {
    empty: { none: t('clients.empty'), noMatches: t('clients.noMatches') },
    onSearchInput: () => setSelection(emptySelection),
  });
  const remove = useDeleteClient();

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toastSuccess(t('clients.deleted', { name: deleting.name }));
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setDeleting(null);
    }
  }

  // The columns and the header stay the same objects from one render to the next, so the
  // steps of the list's query render neither the rows (DataTableRows) nor the header again.
  const columns = useMemo<Column<Client>[]>(
    () => [
      ...clientFieldColumns(t, {
        name: (c) => <PlainAnchorLink to={`/project-management/clients/${c.id}`}>{c.name}</PlainAnchorLink>,
      }),
      { key: 'projects', header: t('clients.projects'), render: (c) => c.project_count },
      {
        key: 'created_at',
        header: t('clients.createdAt'),
        sortField: 'created_at',
        render: (c) => formatDate(c.created_at),
      },
      {
        key: 'actions',
        header: t('common.actions'),
        render: (c) => (
          <PlainActionGroup>
            <PlainSubtleButton onClick={() => setEditing(c)} label={t('clients.editNamed', { name: c.name })}>
              {t('common.edit')}
            </PlainSubtleButton>
            <PlainSubtleButton
              color="red"
              onClick={() => setDeleting(c)}
              label={t('clients.deleteNamed', { name: c.name })}
              // The server refuses a client with any project, archived ones too (CLIENT_HAS_PROJECTS).
              blockedReason={c.project_count > 0 ? t('clients.deleteBlocked') : undefined}
            >
              {t('common.delete')}
            </PlainSubtleButton>
          </PlainActionGroup>
        ),
      },
    ],
    [t],
  );

  const header = useMemo(
    () => (
      <PageHeader
        title={t('tabs.projectManagement')}
        action={
          <Group gap="xs">
            <Button variant="default" onClick={() => setRosterOpen(true)}>
              {t('cap.open')}
            </Button>
            <Button onClick={() => setEditing('new')}>{t('clients.new')}</Button>
          </Group>
        }
      />
    ),
    [t],
  );

  return (
    <>
      {header}
      {rosterOpen && <CapRosterModal opened onClose={() => setRosterOpen(false)} />}
      <TextInput {...search} placeholder={t('clients.searchPlaceholder')} maw={360} mb="md" />
      <DataTable
        caption={t('clients.caption')}
        columns={columns}
        getRowId={clientId}
        {...table}
        selection={selection}
        onSelectionChange={setSelection}
      />
      {editing && (
        <ClientFormModal opened client={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('clients.deleteTitle')}
        message={t('clients.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
