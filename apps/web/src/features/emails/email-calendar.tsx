import { Anchor, Group, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { defaultSeason, type EmailCalendar as Calendar, type Project } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import { formatDay } from '../../lib/format';
import { Link } from '../../lib/screen-router';
import { QueryError } from '../../components/query-error';
import { useLiveSearchParams } from '../../lib/use-live-search-params';
import { localDay } from './email-form';
import { calendarQueryOptions } from './emails-api';
import classes from './email-calendar.module.css';

type Day = Calendar['days'][number];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The season's days in weeks, Monday first; the days before its first and after its last are empty. */
function weeksOf(days: Day[]): (Day | null)[][] {
  if (!days.length) return [];
  const weekday = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  const cells: (Day | null)[] = [...Array<null>(weekday(days[0]!.date)).fill(null), ...days];
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

/**
 * The season calendar: for each day of a season, which emails the schedule will send and to
 * how many participants, with progress as it stands now (a participant who completes drops
 * out of later reminders). Each day with emails opens that day's dry run ("Who gets what").
 */
export function EmailCalendar({ project, base }: { project: Project; base: string }) {
  const { t } = useTranslation();
  const [params, replaceParams] = useLiveSearchParams();
  const season =
    project.seasons.find((s) => s.id === params.get('season')) ?? defaultSeason(project.seasons, localDay(0));
  const calendar = useQuery(calendarQueryOptions(project.id, season?.name ?? ''));

  function chooseSeason(id: string | null) {
    replaceParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set('season', id);
      else next.delete('season');
      return next;
    });
  }

  const total = (day: Day) => day.counts.reduce((sum, c) => sum + c.count, 0);
  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          {t('emails.calendarHint')}
        </Text>
        <Select
          label={t('emails.season')}
          data={project.seasons.map((s) => ({ value: s.id, label: s.name }))}
          value={season?.id ?? null}
          onChange={chooseSeason}
          allowDeselect={false}
          w={220}
        />
      </Group>
      {calendar.error ? (
        <QueryError error={calendar.error} onRetry={() => void calendar.refetch()} />
      ) : !calendar.data ? (
        <Skeleton h={360} />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table withTableBorder withColumnBorders layout="fixed" data-testid="email-calendar">
            <Table.Caption>{t('emails.calendarCaption', { season: calendar.data.season_name })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {WEEKDAYS.map((d) => (
                  <Table.Th key={d}>{t(`emails.weekdays.${d}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {weeksOf(calendar.data.days).map((week) => (
                <Table.Tr key={week.find(Boolean)!.date}>
                  {week.map((day, i) =>
                    day ? (
                      <Table.Td key={day.date} className={classes.day} data-date={day.date}>
                        {total(day) > 0 ? (
                          <Anchor
                            component={Link}
                            to={`${base}?view=schedule&date=${day.date}`}
                            size="xs"
                            fw={600}
                            aria-label={t('emails.calendarDayLink', { day: formatDay(day.date), count: total(day) })}
                          >
                            {formatDay(day.date)}
                          </Anchor>
                        ) : (
                          <Text size="xs" c="dimmed">
                            {formatDay(day.date)}
                          </Text>
                        )}
                        {day.counts.map((c) => (
                          <Text key={c.email_type} size="xs" data-email-type={c.email_type}>
                            {t('emails.emailCount', { name: c.email_name, count: c.count })}
                          </Text>
                        ))}
                      </Table.Td>
                    ) : (
                      <Table.Td key={`empty-${i}`} className={classes.outside} />
                    ),
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
