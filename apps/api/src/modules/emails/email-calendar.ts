import { defaultSeason, type EmailCalendar, type EmailTypeValue } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import { emailName } from '../../db/email-templates.js';
import { addDays, SUMMARY_REMINDER_AFTER_DAYS } from './email-rules.js';
import { forecastShare, type CompletionCurve } from './email-forecast.js';
import type { ScheduledSeason } from './email-schedule.repository.js';
import { sendsItself, type EmailScheduler } from './email-scheduler.js';

/**
 * The season calendar: the schedule's dry run for every day of a season, counted by email.
 * Each day asks the scheduler's own picks with progress as it stands now, so a participant who
 * has completed a round is in none of its later reminders. An email a rule allows on two days
 * (the initial email: the start date or the day after) is sent once, under one key: it is
 * counted on the first day that picks it, as the schedule would send it then. Beside each count
 * (the upper bound: nobody completes from today on), its forecast (./email-forecast.ts).
 */

/**
 * The days a season's emails can fall on: from its first round's start to its last round's
 * end, or, once its summary is posted, to the summary's reminder if that is later. (An initial
 * email a rule allows on the day after a start on the last day is counted on the start date,
 * the first day that picks it: no day after the season is drawn for it.)
 */
export function calendarDays(season: ScheduledSeason): string[] {
  const starts = season.rounds.map((r) => r.startDate).sort();
  const ends = season.rounds.map((r) => r.endDate).sort();
  if (!starts.length) return [];
  const lastRound = ends[ends.length - 1]!;
  const reminder = season.summaryPostedOn ? addDays(season.summaryPostedOn, SUMMARY_REMINDER_AFTER_DAYS) : lastRound;
  const last = reminder > lastRound ? reminder : lastRound;
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
  curve: CompletionCurve,
  today: string,
): Promise<EmailCalendar> {
  const days: EmailCalendar['days'] = [];
  const ahead = { count: 0, forecast: 0 };
  const sent = new Set<string>();
  for (const date of calendarDays(season)) {
    const counts = new Map<EmailTypeValue, { count: number; expected: number }>();
    for await (const page of scheduler.picks(date, season.projectId, season.id)) {
      for (const pick of page) {
        if (!sendsItself(pick) || sent.has(pick.dedupeKey)) continue;
        sent.add(pick.dedupeKey);
        const entry = counts.get(pick.due.type) ?? { count: 0, expected: 0 };
        entry.count += 1;
        entry.expected += forecastShare(curve, season, pick.participant, pick.due, date, today);
        counts.set(pick.due.type, entry);
      }
    }
    const dayCounts = [...counts].map(([type, c]) => ({
      email_type: type,
      email_name: emailName(type),
      count: c.count,
      forecast: Math.round(c.expected),
    }));
    if (date > today) {
      for (const c of dayCounts) {
        ahead.count += c.count;
        ahead.forecast += c.forecast;
      }
    }
    days.push({ date, counts: dayCounts });
  }
  return {
    season_name: season.name,
    today,
    rounds: [...season.rounds]
      .sort((a, b) => a.number - b.number)
      .map((r) => ({
        number: r.number,
        start_date: r.startDate,
        end_date: r.endDate,
        published_cases: season.casesByRound[r.number] ?? 0,
      })),
    forecast_basis: curve.basis,
    ahead,
    days,
  };
}
