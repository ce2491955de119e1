import { Anchor, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { casePreviewSortFields } from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { formatDateTime } from '../../lib/format';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { useCaseHome } from '../../lib/case-home';
import { caseQueryOptions, previewListQueryOptions } from './cases-api';

type Row = { id: string; name: string; completed_at: string; score: number };

/** Case Previews: the previews taken of a case, and the way to take a new one. */
export function CasePreviewsPage() {
  const { t } = useTranslation();
  const { caseId = '' } = useParams();
  const home = useCaseHome();
  const list = useListState({ sortable: casePreviewSortFields });
  const theCase = useQuery(caseQueryOptions(caseId));
  const previews = useQuery(previewListQueryOptions(caseId, list.query));
  const { table, search } = useListTable(list, previews, {
    empty: { none: t('previews.empty'), noMatches: t('previews.noMatches') },
  });
  const base = `${home.casesPath}/case-details/${caseId}`;
  const columns: Column<Row>[] = [
    {
      key: 'name',
      header: t('previews.takenBy'),
      sortField: 'name',
      render: (p) => (
        <Anchor component={Link} to={`${base}/previews/${p.id}`}>
          {p.name}
        </Anchor>
      ),
    },
    {
      key: 'completed',
      header: t('previews.completedAt'),
      sortField: 'completed_at',
      render: (p) => formatDateTime(p.completed_at),
    },
    { key: 'score', header: t('previews.score'), sortField: 'score', render: (p) => `${p.score}%` },
  ];
  return (
    <Stack>
      <Anchor component={Link} to={base} size="sm">
        {t('previews.backToCase')}
      </Anchor>
      <Group justify="space-between">
        <Title order={3}>{t('previews.title', { name: theCase.data?.name ?? '…' })}</Title>
        <Button component={Link} to={`${base}/previews/new`}>
          {t('previews.take')}
        </Button>
      </Group>
      <TextInput {...search} placeholder={t('previews.searchPlaceholder')} w={280} />
      <DataTable
        caption={t('previews.title', { name: theCase.data?.name ?? '' })}
        columns={columns}
        getRowId={(p) => p.id}
        {...table}
      />
    </Stack>
  );
}
