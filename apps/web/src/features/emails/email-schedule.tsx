import { useState } from 'react';
import { Group, List, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';

import { useTranslation } from '../../lib/i18n';
import { useListTable } from '../../lib/use-list-table';
import { scheduledEmailTypes, type ScheduledEmail, type ScheduledEmailType } from '@pss/contract';
import type { emails } from '../../lib/i18n/admin-areas/emails';
import { DataTable, type Column } from '../../components/data-table';
import { StatusBadge } from '../../components/status-badge';
import { formatDay } from '../../lib/format';
import { localDay } from './email-form';
import { scheduleQueryOptions } from './emails-api';
import { PlaceholderWarnings } from './placeholder-warnings';
import { useLiveSearchParams } from '../../lib/use-live-search-params';

const PAGE_SIZE = 25;
/**
 * Which paragraph of "How the schedule picks" explains each email the schedule sends (its rule
 * is in email-rules.ts on the server): a new scheduled type needs a paragraph, or a place in one.
 */
const explainedIn: Record<ScheduledEmailType, keyof typeof emails.scheduleRules> = {
  initial: 'initial',
  reminder: 'reminder',
  last_day_of_round: 'lastDay',
  new_round: 'newRound',
  last_round: 'lastDay',
  summary_launch: 'summary',
  summary_reminder: 'summary',
};
/** The paragraphs in the order of the emails they explain, then the emails the schedule does not send. */
const rules = [...new Set([...scheduledEmailTypes.map((type) => explainedIn[type]), 'manual', 'certificate'] as const)];
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The dry run of the schedule: on a day (tomorrow unless another is chosen) who would get
 * which email and why, with how many of each. Nothing is sent from here.
 */
export function EmailSchedule({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const [params, replaceParams] = useLiveSearchParams();
  const [tomorrow] = useState(() => localDay(1));
  const date = params.get('date') ?? tomorrow;
  const [page, setPage] = useState(1);
  const schedule = useQuery(scheduleQueryOptions(projectId, { date, page, limit: PAGE_SIZE }));
  const data = schedule.data?.date === date ? schedule.data : undefined;
  const { table } = useListTable(
    { page, limit: PAGE_SIZE, setPage },
    { data, isFetching: schedule.isFetching, error: schedule.error, refetch: schedule.refetch },
    { empty: t('emails.scheduleEmpty') },
  );

  function setDate(value: string) {
    setPage(1);
    replaceParams((current) => {
      const next = new URLSearchParams(current);
      if (value && value !== tomorrow) next.set('date', value);
      else next.delete('date');
      return next;
    });
  }

  const columns: Column<ScheduledEmail>[] = [
    {
      key: 'participant',
      header: t('emails.participant'),
      render: (s) => (
        <div>
          <Text size="sm">{`${s.participant.last_name}, ${s.participant.first_name}`}</Text>
          <Text size="xs" c="dimmed">
            {s.participant.email}
          </Text>
        </div>
      ),
    },
    {
      key: 'email',
      header: t('emails.name'),
      render: (s) => (
        <div>
          <Text size="sm">{s.email_name}</Text>
          <Text size="xs" c="dimmed">
            {[s.season_name, s.round_number === null ? null : t('emails.roundN', { n: s.round_number })]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </div>
      ),
    },
    { key: 'reason', header: t('emails.reason'), render: (s) => s.reason },
    {
      key: 'queued',
      header: t('emails.status'),
      render: (s) => (s.already_queued ? <StatusBadge color="blue">{t('emails.alreadyQueued')}</StatusBadge> : '—'),
    },
  ];

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('emails.scheduleHint')}
      </Text>
      <Paper withBorder p="sm" component="section" aria-labelledby="schedule-rules-title">
        <Title order={4} size="h5" mb={4} id="schedule-rules-title">
          {t('emails.scheduleRulesTitle')}
        </Title>
        <List size="sm" spacing={2}>
          {rules.map((rule) => (
            <List.Item key={rule}>{t(`emails.scheduleRules.${rule}`)}</List.Item>
          ))}
        </List>
      </Paper>
      <Group align="flex-start" wrap="wrap" gap="lg">
        <TextInput
          type="date"
          label={t('emails.scheduleDate')}
          value={date}
          onChange={(e) => setDate(e.currentTarget.value)}
          error={date && !isDay(date) ? t('validation.required') : undefined}
          w={200}
        />
        <Paper withBorder p="sm" miw={260} style={{ flex: 1 }} aria-live="polite">
          <Title order={4} size="h5" mb={4}>
            {t('emails.scheduleCounts', { date: formatDay(date) })}
          </Title>
          {schedule.error ? null : !data ? (
            <Skeleton h={40} />
          ) : data.counts.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('emails.scheduleCountsEmpty', { date: formatDay(date) })}
            </Text>
          ) : (
            <List size="sm" spacing={2} data-testid="schedule-counts">
              {data.counts.map((c) => (
                <List.Item key={c.email_type + c.email_name}>
                  {t('emails.emailCount', { name: c.email_name, count: c.count })}
                </List.Item>
              ))}
            </List>
          )}
        </Paper>
      </Group>
      {data && <PlaceholderWarnings warnings={data.warnings} title={t('emails.scheduleWarnings')} />}
      <DataTable
        caption={t('emails.scheduleCaption', { date: formatDay(date) })}
        columns={columns}
        getRowId={(s) => `${s.participant.id}:${s.email_id}`}
        {...table}
      />
    </Stack>
  );
}
