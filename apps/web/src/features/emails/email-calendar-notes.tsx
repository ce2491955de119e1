import { List, Stack, Text } from '@mantine/core';
import type { EmailCalendar as Calendar } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import { formatDay } from '../../lib/format';

/**
 * What the season calendar rests on, above its grid: today (the app's day, not the browser's),
 * what the days after today add up to with their forecast, what the forecast is based on, and
 * each round with its published cases (a round with none sends no email, and says so).
 */
export function EmailCalendarNotes({ calendar }: { calendar: Calendar }) {
  const { t } = useTranslation();
  const { today, days, ahead, forecast_basis: basis } = calendar;
  const day = formatDay(today);
  const todayLine =
    days.length && today < days[0]!.date
      ? t('emails.calendar.todayBefore', { day })
      : days.length && today > days.at(-1)!.date
        ? t('emails.calendar.todayAfter', { day })
        : t('emails.calendar.todayIs', { day });
  const basisLine =
    basis.source === 'PAST_SEASONS'
      ? t('emails.calendar.basisPast', { count: basis.seasons })
      : basis.source === 'THIS_SEASON'
        ? t('emails.calendar.basisThisSeason', { count: basis.rounds })
        : t('emails.calendar.basisNone');
  return (
    <Stack gap={4} data-testid="calendar-notes">
      <Text size="sm">
        {todayLine}{' '}
        {ahead.count > 0 && (
          <span data-testid="calendar-ahead">
            {t('emails.calendar.ahead', { count: ahead.count, forecast: ahead.forecast })}
          </span>
        )}
      </Text>
      <Text size="sm" data-testid="forecast-basis">
        {basisLine}
      </Text>
      <List size="sm" aria-label={t('emails.calendar.rounds')} data-testid="calendar-rounds">
        {calendar.rounds.map((r) => (
          <List.Item key={r.number} data-round={r.number}>
            {t('emails.calendar.round', {
              number: r.number,
              start: formatDay(r.start_date),
              end: formatDay(r.end_date),
            })}
            {' · '}
            {r.published_cases > 0 ? (
              t('emails.calendar.publishedCases', { count: r.published_cases })
            ) : (
              <Text span size="sm" fw={600}>
                {t('emails.calendar.noPublishedCase')}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
