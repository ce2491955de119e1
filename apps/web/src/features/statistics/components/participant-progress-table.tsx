import { Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import {
  participantProgressValues,
  participantStatisticsSortFields,
  type ParticipantStatistics,
  type Season,
} from '@pss/contract';
import { DataTable, type Column } from '../../../components/data-table';
import { StatusBadge } from '../../../components/status-badge';
import { useListState } from '../../../lib/use-list-state';
import { useListTable } from '../../../lib/use-list-table';
import { useUrlParam } from '../../../lib/use-url-param';
import { participantProgressQueryOptions, type ParticipantProgress } from '../statistics-api';
import { formatScore } from '../progress-format';

const progressColor = { NOT_STARTED: 'gray', IN_PROGRESS: 'blue', COMPLETE: 'teal' } as const;

/** Each participant's progress in the season, overall and per round; searched, filtered, sorted and paged in the URL. */
export function ParticipantProgressTable(props: { projectId: string; season: Season }) {
  const { t } = useTranslation();
  const list = useListState({ sortable: participantStatisticsSortFields });
  const [progressParam, setProgressParam] = useUrlParam('progress');
  const progress = participantProgressValues.find((p) => p === progressParam);
  const participants = useQuery(
    participantProgressQueryOptions(props.projectId, props.season.name, {
      ...list.query,
      filter: progress ? { progress } : {},
    }),
  );
  const rounds = [...props.season.rounds].sort((a, b) => a.number - b.number);
  const { table, search } = useListTable(list, participants, {
    empty: { none: t('progress.participantsEmpty'), noMatches: t('progress.participantsNoMatches') },
    filtered: Boolean(progress),
  });

  const badge = (value: ParticipantProgress) => (
    <StatusBadge color={progressColor[value]}>{t(`progress.progressValue.${value}`)}</StatusBadge>
  );

  const columns: Column<ParticipantStatistics>[] = [
    {
      key: 'name',
      header: t('progress.name'),
      sortField: 'name',
      render: (p) => `${p.last_name}, ${p.first_name}`,
    },
    { key: 'email', header: t('progress.email'), sortField: 'email', render: (p) => p.email },
    { key: 'progress', header: t('progress.progress'), sortField: 'progress', render: (p) => badge(p.progress) },
    {
      key: 'cases',
      header: t('progress.cases'),
      render: (p) => t('progress.casesOf', { completed: p.completed, unlocked: p.unlocked }),
    },
    ...rounds.map((round): Column<ParticipantStatistics> => ({
      key: `round-${round.number}`,
      header: t('progress.roundLabel', { number: round.number }),
      render: (p) => {
        const own = p.rounds.find((r) => r.round_number === round.number);
        if (!own || own.unlocked + own.completed === 0) return '—';
        return (
          <Stack gap={0}>
            <Text size="sm">{t('progress.roundCell', { completed: own.completed, unlocked: own.unlocked })}</Text>
            {own.average_score !== null && (
              <Text size="xs" c="dimmed">
                {t('progress.scoreCell', { score: formatScore(own.average_score) })}
              </Text>
            )}
          </Stack>
        );
      },
    })),
    {
      key: 'average_score',
      header: t('progress.averageScore'),
      sortField: 'average_score',
      render: (p) => formatScore(p.average_score),
    },
  ];

  return (
    <Stack gap="sm" component="section" aria-label={t('progress.participantsTitle')}>
      <Group align="flex-end" wrap="wrap">
        <TextInput {...search} placeholder={t('progress.searchPlaceholder')} w={260} />
        <Select
          label={t('progress.progress')}
          value={progress ?? 'all'}
          onChange={(value) => setProgressParam(value && value !== 'all' ? value : null)}
          data={[
            { value: 'all', label: t('common.all') },
            ...participantProgressValues.map((value) => ({ value, label: t(`progress.progressValue.${value}`) })),
          ]}
          allowDeselect={false}
          w={170}
        />
      </Group>
      <DataTable caption={t('progress.participantsTitle')} columns={columns} getRowId={(p) => p.user_id} {...table} />
    </Stack>
  );
}
