import { useId } from 'react';
import { BarChart } from '@mantine/charts';
import { Paper, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { formatDay } from '../../../lib/format';
import { byRoundQueryOptions, completionsByDayQueryOptions } from '../statistics-api';
import { QueryError } from '../../../components/query-error';

const CHART_HEIGHT = 240;

/**
 * The page asks for the charts' figures as it opens, with its other calls (progress-page.tsx):
 * the charts, which arrive later, take that answer rather than ask again as they mount.
 */
const ASKED_BY_THE_PAGE = { refetchOnMount: false } as const;

/** Completions over the last two weeks, and participation and completion by round. */
export function ProgressCharts(props: { projectId: string; seasonName: string }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <CompletionsByDayChart {...props} />
      <ByRoundChart {...props} />
    </SimpleGrid>
  );
}

/** A chart with a title and a description screen readers announce for it. */
function ChartFigure(props: { title: string; description: string | null; testId: string; children: React.ReactNode }) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="figure"
      m={0}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      data-testid={props.testId}
    >
      <Title order={4} id={titleId}>
        {props.title}
      </Title>
      <Text size="sm" c="dimmed" id={descriptionId} mih={42} mb="sm">
        {props.description ?? ''}
      </Text>
      {props.children}
    </Paper>
  );
}

/** "Mar 2" from "2026-03-02". */
function shortDay(day: string): string {
  return formatDay(day).replace(/, \d{4}$/, '');
}

function CompletionsByDayChart(props: { projectId: string; seasonName: string }) {
  const { t } = useTranslation();
  const query = useQuery({ ...completionsByDayQueryOptions(props.projectId, props.seasonName), ...ASKED_BY_THE_PAGE });
  const items = query.data?.items ?? [];
  const data = items.map((d) => ({ day: shortDay(d.date), completed: d.completed }));
  const total = items.reduce((sum, d) => sum + d.completed, 0);
  const busiest = items.reduce<(typeof items)[number] | undefined>(
    (best, d) => (!best || d.completed > best.completed ? d : best),
    undefined,
  );
  const from = formatDay(items[0]?.date);
  const to = formatDay(items[items.length - 1]?.date);
  const description = !query.data
    ? null
    : total === 0
      ? t('progress.byDayNone', { from, to })
      : t('progress.byDayDescription', {
          total,
          from,
          to,
          busiest: formatDay(busiest?.date),
          most: busiest?.completed ?? 0,
        });
  return (
    <ChartFigure title={t('progress.byDayTitle')} description={description} testId="chart-by-day">
      {query.error ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data ? (
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="day"
          series={[{ name: 'completed', label: t('progress.completed'), color: 'blue.8' }]}
          tickLine="y"
          yAxisProps={{ allowDecimals: false }}
          xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
        />
      ) : (
        <Skeleton h={CHART_HEIGHT} />
      )}
    </ChartFigure>
  );
}

function ByRoundChart(props: { projectId: string; seasonName: string }) {
  const { t } = useTranslation();
  const query = useQuery({ ...byRoundQueryOptions(props.projectId, props.seasonName), ...ASKED_BY_THE_PAGE });
  const items = query.data?.items ?? [];
  const data = items.map((r) => ({
    round: t('progress.roundLabel', { number: r.round_number }),
    participation: Math.round(r.participation_rate * 100),
    completion: Math.round(r.completion_rate * 100),
  }));
  const empty = query.data && items.every((r) => r.assigned === 0);
  return (
    <ChartFigure
      title={t('progress.byRoundTitle')}
      description={query.data ? t('progress.byRoundDescription') : null}
      testId="chart-by-round"
    >
      {query.error ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : empty ? (
        <Text h={CHART_HEIGHT} py="xl">
          {t('progress.byRoundEmpty')}
        </Text>
      ) : query.data ? (
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="round"
          withLegend
          legendProps={{ verticalAlign: 'bottom', height: 40 }}
          series={[
            { name: 'participation', label: t('progress.participationRate'), color: 'blue.8' },
            { name: 'completion', label: t('progress.completionRate'), color: 'teal.9' },
          ]}
          valueFormatter={(value) => `${value}%`}
          yAxisProps={{ domain: [0, 100] }}
          tickLine="y"
        />
      ) : (
        <Skeleton h={CHART_HEIGHT} />
      )}
    </ChartFigure>
  );
}
