import { useState } from 'react';
import { Anchor, Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { caseSortFields, caseStatuses, type CaseStatusValue, type CaseSummary } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { formatDate } from '../../lib/format';
import { emptySelection, selectedCount, toSelectionBody, type SelectionState } from '../../lib/selection';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { useUrlParam } from '../../lib/use-url-param';
import { CaseStatusBadge } from './case-status-badge';
import { useCaseHome } from '../../lib/case-home';
import { allCaseIds, caseListQueryOptions } from './cases-api';
import { CopyModuleCasesDialog, DeleteCasesDialog, MoveCasesDialog, type BulkTarget } from './case-bulk-dialogs';

/** The project's cases: search, sort, status filter, and bulk move or delete of a selection. */
export function CasesPage() {
  const { t } = useTranslation();
  const home = useCaseHome();
  const list = useListState({ sortable: caseSortFields });
  const [statusParam, setStatusParam] = useUrlParam('status');
  const status = caseStatuses.includes(statusParam as CaseStatusValue) ? (statusParam as CaseStatusValue) : undefined;
  const cases = useQuery(caseListQueryOptions(home, { ...list.query, status }));
  const [selection, setSelection] = useState<SelectionState>(emptySelection);
  const { table, search } = useListTable(list, cases, {
    empty: { none: t('cases.empty'), noMatches: t('cases.noMatches') },
    filtered: Boolean(status),
    onSearchInput: () => setSelection(emptySelection),
  });
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
        <TextInput {...search} placeholder={t('cases.searchPlaceholder')} w={280} />
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
        getRowId={(c) => c.id}
        {...table}
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
