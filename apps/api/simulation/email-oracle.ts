import { addDays, daysBetween } from '../src/modules/emails/email-rules.js';
import { roundOnDay, type Clinician, type SeasonPlan } from './season-plan.js';
import type { ClinicianRecord, GroundTruth } from './ground-truth.js';
import type { Letter } from './sim-clinicians.js';

/**
 * The simulation's own reading of the round schedule (spec §9), written from the
 * specification and not from the app's rules, so that the two can disagree: which emails a
 * clinician must get on a day given what they had done by the moment the schedule ran, and
 * the key under which each counts once.
 */

export type Expectation = { key: string; type: string };

const roundScoped = new Set(['reminder', 'last_day_of_round', 'last_round', 'new_round', 'week_left']);

/** The email's identity: a second one with the same key is a duplicate. */
export function letterKey(letter: Pick<Letter, 'to' | 'type' | 'day'>, plan: SeasonPlan): string {
  const round = roundOnDay(plan, letter.day)?.number ?? 0;
  switch (letter.type) {
    case 'reminder':
      return `${letter.to}|reminder|${letter.day}`;
    case 'new_round':
    case 'last_day_of_round':
    case 'last_round':
      return `${letter.to}|${letter.type}|${round}`;
    default:
      return `${letter.to}|${letter.type}`;
  }
}

/** The round an email reminds of, when it reminds of one. */
export function remindedRound(letter: Pick<Letter, 'type' | 'day'>, plan: SeasonPlan): number | null {
  return roundScoped.has(letter.type) ? (roundOnDay(plan, letter.day)?.number ?? null) : null;
}

/**
 * What the schedule must send the clinician in a run at `at` on `day`: nothing once their
 * address was suppressed (`suppressedSince`, the moment its bounce was reported) before the run.
 */
export function expectedEmails(
  plan: SeasonPlan,
  truth: GroundTruth,
  record: ClinicianRecord,
  day: string,
  at: Date,
  summaryPosted: boolean,
  suppressedSince?: Date,
): Expectation[] {
  if (suppressedSince && suppressedSince.getTime() <= at.getTime()) return [];
  const c: Clinician = record.clinician;
  const out: Expectation[] = [];
  const expect = (type: string) => out.push({ type, key: letterKey({ to: c.email, type, day }, plan) });
  const sinceStart = daysBetween(c.startDate, day);
  if (sinceStart === 0 || sinceStart === 1) expect('initial');

  const posted = plan.summaryPostedOn;
  if (summaryPosted && truth.seasonDone(record, at)) {
    const sincePosted = daysBetween(posted, day);
    if (sincePosted === 0 || sincePosted === 1) expect('summary_launch');
    const seenSince = [...record.seenOn].some((d) => d >= posted);
    if (sincePosted === 7 && !seenSince) expect('summary_reminder');
  }

  const round = roundOnDay(plan, day);
  if (!round || sinceStart < 0 || round.number < c.firstRound || round.number > c.lastRound) return out;
  if (truth.roundDone(record, round.number, at)) return out;
  const isLastRound = round.number === plan.rounds.length;
  if (round.number >= 2 && day === round.startDate && c.startDate < day && c.firstRound < round.number) {
    expect('new_round');
  }
  if (day === round.endDate) expect(isLastRound ? 'last_round' : 'last_day_of_round');
  // A week before the season's last day, to those with the last round's cases left.
  if (isLastRound && daysBetween(day, round.endDate) === 7) expect('week_left');
  const began = c.startDate > round.startDate ? c.startDate : round.startDate;
  const since = daysBetween(began, day);
  if (day !== round.endDate && since > 0 && since % 2 === 0) expect('reminder');
  return out;
}

/** The summary's last day of email: its reminder's day. */
export const summaryReminderDay = (plan: SeasonPlan) => addDays(plan.summaryPostedOn, 7);
