import { useState } from 'react';
import { Anchor, Button, Group, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { clientSortFields, type Client } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { emptySelection, type SelectionState } from '../../lib/selection';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { lazyDialog } from '../../components/lazy-dialog';
import { clientListQueryOptions, useDeleteClient } from './clients-api';

const CapRosterModal = lazyDialog(async () => (await import('./cap-roster-modal')).CapRosterModal);
const ClientFormModal = lazyDialog(async () => (await import('./client-form-modal')).ClientFormModal);

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

  const columns: Column<Client>[] = [
    {
      key: 'name',
      header: t('clients.name'),
      sortField: 'name',
      render: (c) => (
        <Anchor component={Link} to={`/project-management/clients/${c.id}`}>
          {c.name}
        </Anchor>
      ),
    },
    { key: 'cap_id', header: t('clients.capId'), sortField: 'cap_id', render: (c) => c.cap_id ?? '—' },
    { key: 'cap_status', header: t('clients.capStatus'), sortField: 'cap_status', render: (c) => c.cap_status ?? '—' },
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
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => setEditing(c)}
            aria-label={t('clients.editNamed', { name: c.name })}
          >
            {t('common.edit')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={() => setDeleting(c)}
            aria-label={t('clients.deleteNamed', { name: c.name })}
          >
            {t('common.delete')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <>
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
      {rosterOpen && <CapRosterModal opened onClose={() => setRosterOpen(false)} />}
      <TextInput {...search} placeholder={t('clients.searchPlaceholder')} maw={360} mb="md" />
      <DataTable
        caption={t('clients.caption')}
        columns={columns}
        getRowId={(c) => c.id}
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
