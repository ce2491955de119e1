import { useState } from 'react';
import { Anchor, Button, Group, Modal, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CaseSelection, CaseStatusValue, CaseSummary, Project } from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { emptySelection, selectedCount, toSelectionBody, type SelectionState } from '../../lib/selection';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useUrlParam } from '../../lib/use-url-param';
import { CaseStatusBadge } from './case-status-badge';
import { caseListQueryOptions, clientProjectsQueryOptions, useDeleteCases, useMoveCases } from './cases-api';

const sortable = ['name', 'patient_name', 'status', 'updated_at', 'created_at'] as const;
const statuses: CaseStatusValue[] = ['DRAFT', 'PUBLISHED', 'ACTIVE'];

/** The project's cases: search, sort, status filter, and bulk move or delete of a selection. */
export function CasesPage() {
  const { t } = useTranslation();
  const { clientId = '', projectId = '' } = useParams();
  const { project } = useOutletContext<{ project: Project }>();
  const list = useListState({ sortable });
  const [statusParam, setStatusParam] = useUrlParam('status');
  const status = statuses.includes(statusParam as CaseStatusValue) ? (statusParam as CaseStatusValue) : undefined;
  const cases = useQuery(caseListQueryOptions(projectId, { ...list.query, status }));
  const [selection, setSelection] = useState<SelectionState>(emptySelection);
  const [action, setAction] = useState<'move' | 'delete' | null>(null);
  const total = cases.data?.total ?? 0;
  const count = selectedCount(selection, total);
  const base = `/project-management/clients/${clientId}/projects/${projectId}/cases`;

  /** A bulk call names one case in its path and the rest of the selection in its body. */
  function bulkTarget(): BulkTarget | null {
    const body = toSelectionBody(selection, { search: list.search || undefined, filter: status ? { status } : {} });
    if (!body) return null;
    if ('ids' in body) return { caseId: body.ids[0]!, selection: body };
    const anyRow = cases.data?.items.find((row) => !body.except.includes(row.id));
    return anyRow ? { caseId: anyRow.id, selection: { ...body, filter: status ? { status } : undefined } } : null;
  }

  const columns: Column<CaseSummary>[] = [
    {
      key: 'name',
      header: t('cases.name'),
      sortField: 'name',
      render: (c) => (
        <Anchor component={Link} to={`${base}/case-details/${c.id}`}>
          {c.name}
        </Anchor>
      ),
    },
    { key: 'patient', header: t('cases.patientName'), sortField: 'patient_name', render: (c) => c.patient_name || '—' },
    { key: 'disease', header: t('cases.diseaseType'), render: (c) => c.disease_type_name ?? '—' },
    {
      key: 'round',
      header: t('cases.placement'),
      render: (c) =>
        c.season_name ? t('cases.placedIn', { season: c.season_name, round: c.round_number }) : t('cases.unplaced'),
    },
    { key: 'questions', header: t('cases.questions'), render: (c) => c.question_count },
    {
      key: 'status',
      header: t('cases.status'),
      sortField: 'status',
      render: (c) => <CaseStatusBadge status={c.status} />,
    },
    { key: 'updated', header: t('cases.updatedAt'), sortField: 'updated_at', render: (c) => formatDate(c.updated_at) },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t('cases.title')}</Title>
        <Button component={Link} to={`${base}/new`}>
          {t('cases.new')}
        </Button>
      </Group>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('table.search')}
          placeholder={t('cases.searchPlaceholder')}
          value={list.searchInput}
          onChange={(e) => {
            setSelection(emptySelection);
            list.setSearchInput(e.currentTarget.value);
          }}
          type="search"
          w={280}
        />
        <Select
          label={t('cases.status')}
          value={status ?? 'all'}
          onChange={(value) => {
            setSelection(emptySelection);
            setStatusParam(value && value !== 'all' ? value : null);
          }}
          data={[
            { value: 'all', label: t('projects.all') },
            ...statuses.map((s) => ({ value: s, label: t(`cases.statusValue.${s}`) })),
          ]}
          allowDeselect={false}
          w={160}
        />
        {count > 0 && (
          <Group gap="xs">
            <Button variant="default" onClick={() => setAction('move')}>
              {t('cases.moveSelected', { count })}
            </Button>
            <Button color="red" variant="outline" onClick={() => setAction('delete')}>
              {t('cases.deleteSelected', { count })}
            </Button>
          </Group>
        )}
      </Group>
      <DataTable
        caption={t('cases.title')}
        columns={columns}
        rows={cases.data?.items}
        total={total}
        page={list.page}
        limit={list.query.limit}
        getRowId={(c) => c.id}
        onPageChange={list.setPage}
        sort={list.sort}
        onToggleSort={list.toggleSort}
        loading={cases.isFetching}
        error={cases.error ? errorMessage(cases.error, t) : null}
        onRetry={() => void cases.refetch()}
        empty={list.search || status ? t('cases.noMatches') : t('cases.empty')}
        selection={selection}
        onSelectionChange={setSelection}
      />
      {action === 'delete' && (
        <DeleteCasesDialog
          count={count}
          target={bulkTarget()}
          onClose={(done) => {
            setAction(null);
            if (done) setSelection(emptySelection);
          }}
        />
      )}
      {action === 'move' && (
        <MoveCasesDialog
          count={count}
          clientId={project.client_id}
          currentProjectId={projectId}
          target={bulkTarget()}
          onClose={(done) => {
            setAction(null);
            if (done) setSelection(emptySelection);
          }}
        />
      )}
    </Stack>
  );
}

type BulkTarget = { caseId: string; selection: CaseSelection };

function DeleteCasesDialog(props: { count: number; target: BulkTarget | null; onClose(done: boolean): void }) {
  const { t } = useTranslation();
  const remove = useDeleteCases();
  async function confirm() {
    if (!props.target) return props.onClose(false);
    try {
      const result = await remove.mutateAsync(props.target);
      toastSuccess(t('cases.deleted', { count: result.ids.length }));
      props.onClose(true);
    } catch (error) {
      toastError(errorMessage(error, t));
      props.onClose(false);
    }
  }
  return (
    <ConfirmDialog
      opened
      title={t('cases.deleteTitle')}
      message={t('cases.deleteMessage', { count: props.count })}
      confirmLabel={t('common.delete')}
      busy={remove.isPending}
      onConfirm={() => void confirm()}
      onClose={() => props.onClose(false)}
    />
  );
}

function MoveCasesDialog(props: {
  count: number;
  clientId: string;
  currentProjectId: string;
  target: BulkTarget | null;
  onClose(done: boolean): void;
}) {
  const { t } = useTranslation();
  const projects = useQuery(clientProjectsQueryOptions(props.clientId));
  const move = useMoveCases();
  const [projectId, setProjectId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const options = (projects.data?.items ?? [])
    .filter((p) => p.id !== props.currentProjectId)
    .map((p) => ({ value: p.id, label: p.name }));

  async function confirm() {
    if (!props.target || !projectId) return;
    try {
      const result = await move.mutateAsync({ ...props.target, projectId });
      toastSuccess(t('cases.moved', { count: result.ids.length }));
      props.onClose(true);
    } catch (failure) {
      setError(errorMessage(failure, t));
    }
  }

  return (
    <Modal opened onClose={() => props.onClose(false)} title={t('cases.moveTitle', { count: props.count })} centered>
      <Stack>
        <Text size="sm">{t('cases.moveHelp')}</Text>
        <Select
          label={t('cases.moveTo')}
          data={options}
          value={projectId}
          onChange={setProjectId}
          searchable
          nothingFoundMessage={t('cases.noOtherProjects')}
          data-autofocus
        />
        {error && (
          <Text c="red.8" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => props.onClose(false)}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void confirm()} loading={move.isPending} disabled={!projectId}>
            {t('cases.move')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
