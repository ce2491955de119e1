import { Anchor, Badge, Group, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { defaultSeason, type EmailCalendar as Calendar, type Project } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import { formatDay } from '../../lib/format';
import { Link } from '../../lib/screen-router';
import { QueryError } from '../../components/query-error';
import { useLiveSearchParams } from '../../lib/use-live-search-params';
import { localDay } from './email-form';
import { calendarQueryOptions } from './emails-api';
import { EmailCalendarNotes } from './email-calendar-notes';
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
 * out of later reminders), and on the days after today each count's forecast. Today (the
 * app's day) is marked; each round's first day says so. Each day with emails opens that day's
 * dry run ("Who gets what").
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
        <>
          <EmailCalendarNotes calendar={calendar.data} />
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
                        <CalendarDay key={day.date} day={day} calendar={calendar.data} base={base} />
                      ) : (
                        <Table.Td key={`empty-${i}`} className={classes.outside} />
                      ),
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}

/**
 * One day of the calendar: its date (a link to its dry run when it has emails), "Today" when it
 * is the app's today (also `aria-current="date"`), a round's beginning, and each email's count
 * with its forecast on the days after today.
 */
function CalendarDay({ day, calendar, base }: { day: Day; calendar: Calendar; base: string }) {
  const { t } = useTranslation();
  const total = day.counts.reduce((sum, c) => sum + c.count, 0);
  const isToday = day.date === calendar.today;
  const ahead = day.date > calendar.today;
  const begins = calendar.rounds.find((r) => r.start_date === day.date);
  return (
    <Table.Td
      className={isToday ? `${classes.day} ${classes.today}` : classes.day}
      data-date={day.date}
      data-today={isToday || undefined}
      aria-current={isToday ? 'date' : undefined}
    >
      <Group gap={4} wrap="wrap">
        {total > 0 ? (
          <Anchor
            component={Link}
            to={`${base}?view=schedule&date=${day.date}`}
            size="xs"
            fw={600}
            aria-label={t('emails.calendarDayLink', { day: formatDay(day.date), count: total })}
          >
            {formatDay(day.date)}
          </Anchor>
        ) : (
          <Text size="xs" c="dimmed">
            {formatDay(day.date)}
          </Text>
        )}
        {isToday && (
          <Badge size="xs" variant="filled" tt="none" data-testid="calendar-today">
            {t('emails.calendar.today')}
          </Badge>
        )}
      </Group>
      {begins && (
        <Text size="xs" fs="italic" data-round-begins={begins.number}>
          {t(begins.published_cases ? 'emails.calendar.roundBegins' : 'emails.calendar.roundBeginsEmpty', {
            number: begins.number,
          })}
        </Text>
      )}
      {day.counts.map((c) => (
        <Text key={c.email_type} size="xs">
          <span data-email-type={c.email_type}>{t('emails.emailCount', { name: c.email_name, count: c.count })}</span>
          {ahead && (
            <Text span size="xs" c="dimmed" data-forecast={c.forecast}>
              {' '}
              ({t('emails.calendar.forecast', { count: c.forecast })})
            </Text>
          )}
        </Text>
      ))}
    </Table.Td>
  );
}
