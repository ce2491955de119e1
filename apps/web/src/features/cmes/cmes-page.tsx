import { useState } from 'react';
import { Button, Group, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { cmeSortFields, type Cme } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { CmeFormModal } from './cme-form-modal';
import { cmeListQueryOptions, useDeleteCme } from './cmes-api';

/** The CME list of a project: credits earned by completing a number of cases. */
export function CmesPage() {
  const { t } = useTranslation();
  const { projectId } = useParams();
  const list = useListState({ sortable: cmeSortFields });
  const cmes = useQuery(
    cmeListQueryOptions(projectId, { page: list.page, limit: list.query.limit, sort: list.query.sort }),
  );
  const { table } = useListTable(list, cmes, { empty: t('cmes.empty') });
  const remove = useDeleteCme();
  const [editing, setEditing] = useState<Cme | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Cme | null>(null);

  const columns: Column<Cme>[] = [
    { key: 'min_cases', header: t('cmes.minCases'), sortField: 'min_cases', render: (c) => c.min_cases },
    { key: 'credits', header: t('cmes.credits'), sortField: 'credits', render: (c) => c.credits },
    { key: 'moc', header: t('cmes.moc'), render: (c) => (c.moc ? t('cmes.yes') : t('cmes.no')) },
    { key: 'totera', header: t('cmes.toteraCourseId'), render: (c) => c.totera_course_id ?? '—' },
    { key: 'custom', header: t('cmes.custom'), render: (c) => c.custom ?? '—' },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (c) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-sm" variant="subtle" onClick={() => setEditing(c)}>
            {t('common.edit')}
          </Button>
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => setDeleting(c)}>
            {t('common.delete')}
          </Button>
        </Group>
      ),
    },
  ];

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toastSuccess(t('cmes.deleted'));
    } catch (error) {
      toastError(errorMessage(error, t));
    } finally {
      setDeleting(null);
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t('cmes.title')}</Title>
        <Button onClick={() => setEditing('new')}>{t('cmes.new')}</Button>
      </Group>
      <DataTable caption={t('cmes.title')} columns={columns} getRowId={(c) => c.id} {...table} />
      {editing && projectId && (
        <CmeFormModal
          opened
          projectId={projectId}
          cme={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('cmes.deleteTitle')}
        message={t('cmes.deleteMessage')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
