import { Paper, Progress, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import {
  caseCompletionRateQueryOptions,
  participantCompletionRateQueryOptions,
  participationQueryOptions,
} from '../statistics-api';
import { formatRate } from '../progress-format';
import { QueryError } from '../../../components/query-error';

interface Figure {
  count: number;
  total: number;
  rate: number;
}

/** Participation, case completion and participant completion, each with what it counts. */
export function RateTiles(props: { projectId: string; seasonName: string }) {
  const { t } = useTranslation();
  const participation = useQuery({
    ...participationQueryOptions(props.projectId, props.seasonName),
    select: (r): Figure => ({ count: r.participating, total: r.total, rate: r.rate }),
  });
  const cases = useQuery({
    ...caseCompletionRateQueryOptions(props.projectId, props.seasonName),
    select: (r): Figure => ({ count: r.completed, total: r.total, rate: r.rate }),
  });
  const participants = useQuery({
    ...participantCompletionRateQueryOptions(props.projectId, props.seasonName),
    select: (r): Figure => ({ count: r.completed, total: r.total, rate: r.rate }),
  });
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 3 }}
      component="section"
      aria-label={t('progress.tiles', { season: props.seasonName })}
    >
      <Tile
        testId="tile-participation"
        label={t('progress.participation')}
        query={participation}
        detail={(f) => t('progress.participationOf', { count: f.count, total: f.total })}
      />
      <Tile
        testId="tile-case-completion"
        label={t('progress.caseCompletion')}
        query={cases}
        detail={(f) => t('progress.caseCompletionOf', { count: f.count, total: f.total })}
      />
      <Tile
        testId="tile-participant-completion"
        label={t('progress.participantCompletion')}
        query={participants}
        detail={(f) => t('progress.participantCompletionOf', { count: f.count, total: f.total })}
      />
    </SimpleGrid>
  );
}

function Tile(props: { testId: string; label: string; query: UseQueryResult<Figure>; detail(figure: Figure): string }) {
  const { data, error, refetch } = props.query;
  return (
    <Paper withBorder p="md" radius="md" data-testid={props.testId} mih={132}>
      <Text size="sm" fw={600} c="dimmed" component="h4" m={0}>
        {props.label}
      </Text>
      {error ? (
        <QueryError error={error} onRetry={() => void refetch()} />
      ) : data ? (
        <>
          <Text fz={32} fw={700} lh={1.3} data-testid="rate">
            {formatRate(data.rate)}
          </Text>
          <Progress value={data.rate * 100} size="sm" mt={4} mb={8} aria-hidden="true" />
          <Text size="sm">{props.detail(data)}</Text>
        </>
      ) : (
        <>
          <Skeleton h={32} w={80} my={4} />
          <Skeleton h={8} my={8} />
          <Skeleton h={14} w="80%" />
        </>
      )}
    </Paper>
  );
}
