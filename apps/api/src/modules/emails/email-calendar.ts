import { defaultSeason, type EmailCalendar, type EmailTypeValue } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import { emailName } from '../../db/email-templates.js';
import { SUMMARY_REMINDER_AFTER_DAYS } from './email-rules.js';
import type { ScheduledSeason } from './email-schedule.repository.js';
import { sendsItself, type EmailScheduler } from './email-scheduler.js';

/**
 * The season calendar: the schedule's dry run for every day of a season, counted by email.
 * Each day asks the scheduler's own picks with progress as it stands now, so a participant who
 * has completed a round is in none of its later reminders. An email a rule allows on two days
 * (the initial email: the start date or the day after) is sent once, under one key: it is
 * counted on the first day that picks it, as the schedule would send it then.
 */

/** `YYYY-MM-DD` plus whole days. */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * The days a season's emails can fall on: from its first round's start to its summary's
 * reminder, or, before a summary is posted, to the day after its last round (a participant who
 * starts on the last day is welcomed the day after).
 */
export function calendarDays(season: ScheduledSeason): string[] {
  const starts = season.rounds.map((r) => r.startDate).sort();
  const ends = season.rounds.map((r) => r.endDate).sort();
  if (!starts.length) return [];
  const afterLast = addDays(ends[ends.length - 1]!, 1);
  const reminder = season.summaryPostedOn ? addDays(season.summaryPostedOn, SUMMARY_REMINDER_AFTER_DAYS) : afterLast;
  const last = reminder > afterLast ? reminder : afterLast;
  const days: string[] = [];
  for (let day = starts[0]!; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The season a calendar is asked for: by name, else the project's default season (as the Progress Dashboard's). */
export function calendarSeason(seasons: ScheduledSeason[], name: string | undefined, today: string): ScheduledSeason {
  const dated = seasons.map((s) => ({
    season: s,
    rounds: s.rounds.map((r) => ({ start_date: r.startDate, end_date: r.endDate })),
  }));
  const found =
    name === undefined
      ? defaultSeason(dated, today)?.season
      : seasons.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!found) {
    throw new AppError('NOT_FOUND', {
      message: name === undefined ? 'The project has no seasons.' : `The project has no season "${name}".`,
    });
  }
  return found;
}

export async function seasonCalendar(
  scheduler: Pick<EmailScheduler, 'picks'>,
  season: ScheduledSeason,
): Promise<EmailCalendar> {
  const days: EmailCalendar['days'] = [];
  const sent = new Set<string>();
  for (const date of calendarDays(season)) {
    const counts = new Map<EmailTypeValue, number>();
    for await (const page of scheduler.picks(date, season.projectId, season.id)) {
      for (const pick of page) {
        if (!sendsItself(pick) || sent.has(pick.dedupeKey)) continue;
        sent.add(pick.dedupeKey);
        counts.set(pick.due.type, (counts.get(pick.due.type) ?? 0) + 1);
      }
    }
    days.push({
      date,
      counts: [...counts].map(([type, count]) => ({ email_type: type, email_name: emailName(type), count })),
    });
  }
  return { season_name: season.name, days };
}
