import { useState } from 'react';
import { Anchor, Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../lib/router';
import { useTranslation } from '../../lib/i18n';
import {
  caseSortFields,
  caseStatuses,
  type CaseSelection,
  type CaseStatusValue,
  type CaseSummary,
} from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { emptySelection, selectedCount, toSelectionBody, type SelectionState } from '../../lib/selection';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useListState } from '../../lib/use-list-state';
import { useUrlParam } from '../../lib/use-url-param';
import { CaseStatusBadge } from './case-status-badge';
import { useCaseHome } from '../../lib/case-home';
import {
  allCaseIds,
  caseListQueryOptions,
  clientProjectsQueryOptions,
  moduleSearchQueryOptions,
  projectSearchQueryOptions,
  useCopyModuleCases,
  useDeleteCases,
  useMoveCases,
  useRemoveModuleCases,
} from './cases-api';

/** The project's cases: search, sort, status filter, and bulk move or delete of a selection. */
export function CasesPage() {
  const { t } = useTranslation();
  const home = useCaseHome();
  const list = useListState({ sortable: caseSortFields });
  const [statusParam, setStatusParam] = useUrlParam('status');
  const status = caseStatuses.includes(statusParam as CaseStatusValue) ? (statusParam as CaseStatusValue) : undefined;
  const cases = useQuery(caseListQueryOptions(home, { ...list.query, status }));
  const [selection, setSelection] = useState<SelectionState>(emptySelection);
  const [action, setAction] = useState<'move' | 'delete' | 'copy' | null>(null);
  const total = cases.data?.total ?? 0;
  const count = selectedCount(selection, total);
  const base = home.casesPath;

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
            { value: 'all', label: t('common.all') },
            ...caseStatuses.map((s) => ({ value: s, label: t(`cases.statusValue.${s}`) })),
          ]}
          allowDeselect={false}
          w={160}
        />
        {count > 0 && (
          <Group gap="xs">
            {home.kind === 'project' ? (
              <Button variant="default" onClick={() => setAction('move')}>
                {t('cases.moveSelected', { count })}
              </Button>
            ) : (
              <Button variant="default" onClick={() => setAction('copy')}>
                {t('cases.copySelected', { count })}
              </Button>
            )}
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
      {action === 'copy' && (
        <CopyModuleCasesDialog
          count={count}
          moduleId={home.id}
          caseIds={() =>
            selection.mode === 'some'
              ? Promise.resolve([...selection.ids])
              : allCaseIds(home, { search: list.search || undefined, status, except: [...selection.except] })
          }
          onClose={(done) => {
            setAction(null);
            if (done) setSelection(emptySelection);
          }}
        />
      )}
      {action === 'delete' && (
        <DeleteCasesDialog
          count={count}
          moduleId={home.kind === 'module' ? home.id : null}
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
          clientId={home.clientId!}
          currentProjectId={home.id}
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

function DeleteCasesDialog(props: {
  count: number;
  /** In a module library, cases are removed from it; in a project, deleted. */
  moduleId: string | null;
  target: BulkTarget | null;
  onClose(done: boolean): void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteCases();
  const removeFromModule = useRemoveModuleCases(props.moduleId ?? '');
  async function confirm() {
    if (!props.target) return props.onClose(false);
    try {
      const result = props.moduleId
        ? await removeFromModule.mutateAsync(props.target.selection)
        : await remove.mutateAsync(props.target);
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
      busy={remove.isPending || removeFromModule.isPending}
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

/**
 * Copies module cases into a project (or another module). A refusal says why in the dialog:
 * the project lacks the case's disease type or question categories.
 */
function CopyModuleCasesDialog(props: {
  count: number;
  moduleId: string;
  caseIds(): Promise<string[]>;
  onClose(done: boolean): void;
}) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'project' | 'module'>('project');
  const [search, setSearch] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const projects = useQuery(projectSearchQueryOptions(search));
  const modules = useQuery(moduleSearchQueryOptions());
  const copy = useCopyModuleCases();
  const options =
    kind === 'project'
      ? (projects.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.client_name} › ${p.name}` }))
      : (modules.data?.items ?? []).filter((m) => m.id !== props.moduleId).map((m) => ({ value: m.id, label: m.name }));

  async function confirm() {
    if (!target) return;
    setError(null);
    try {
      const result = await copy.mutateAsync({
        caseIds: await props.caseIds(),
        target: kind === 'project' ? { project_id: target } : { module_id: target },
      });
      toastSuccess(t('cases.copied', { count: result.ids.length }));
      props.onClose(true);
    } catch (failure) {
      setError(errorMessage(failure, t));
    }
  }

  return (
    <Modal opened onClose={() => props.onClose(false)} title={t('cases.copyTitle', { count: props.count })} centered>
      <Stack>
        <SegmentedControl
          aria-label={t('cases.copyInto')}
          value={kind}
          onChange={(value) => {
            setKind(value as 'project' | 'module');
            setTarget(null);
            setError(null);
          }}
          data={[
            { value: 'project', label: t('cases.copyIntoProject') },
            { value: 'module', label: t('cases.copyIntoModule') },
          ]}
        />
        <Text size="sm">{t('cases.copyHelp')}</Text>
        <Select
          label={kind === 'project' ? t('cases.copyToProject') : t('cases.copyToModule')}
          data={options}
          value={target}
          onChange={(value) => {
            setTarget(value);
            setError(null);
          }}
          searchable
          nothingFoundMessage={t('cases.noTargets')}
          // Projects are searched on the server; picking one writes its label, which is not a search.
          onSearchChange={(value) => kind === 'project' && !value.includes(' › ') && setSearch(value)}
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
          <Button onClick={() => void confirm()} loading={copy.isPending} disabled={!target}>
            {t('cases.copy')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
