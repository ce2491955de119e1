import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { caseCompletionQueryOptions } from '../statistics-api';
import { formatRate, formatScore } from '../progress-format';
import { FigureTable } from './figure-table';

/** Each published case of the season: assigned, started, completed, the rate and the mean score. */
export function CaseCompletionTable(props: { projectId: string; seasonName: string }) {
  const { t } = useTranslation();
  const query = useQuery(caseCompletionQueryOptions(props.projectId, props.seasonName));
  const columns = [
    t('progress.caseName'),
    t('progress.round'),
    t('progress.assigned'),
    t('progress.started'),
    t('progress.completed'),
    t('progress.completionRateColumn'),
    t('progress.averageScore'),
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="case-completion-title">
      <Title order={4} id="case-completion-title">
        {t('progress.casesTitle')}
      </Title>
      <FigureTable
        caption={t('progress.casesTitle')}
        columns={columns}
        rows={query.data?.items}
        rowKey={(c) => c.case_id}
        cells={(c) => [
          c.case_name,
          c.round_number,
          c.assigned,
          c.started,
          c.completed,
          formatRate(c.completion_rate),
          formatScore(c.average_score),
        ]}
        error={query.error}
        onRetry={() => void query.refetch()}
        empty={query.data?.items.length === 0 ? t('progress.casesEmpty') : null}
        minWidth={640}
        testId="case-completion"
      />
    </Stack>
  );
}
