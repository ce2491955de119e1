import type { EmailTypeValue } from '@pss/contract';

/**
 * The round schedule's rules (spec §9), as one pure function of the day, a season and one
 * participant's place and progress in it: which automatic emails are due to them that day,
 * and why. The scheduler, the dry run and the tests all ask this one function; nothing
 * else decides who is emailed when.
 *
 * - initial: on the participant's start date or the day after (spec: "start date is
 *   yesterday or today"). A participant's first season in the project gets the project's
 *   Initial Launch Email; a returning participant (assigned to an earlier season of the
 *   project) gets this season's own initial variant instead.
 * - reminder: every second day after the participant's round began for them (the later of
 *   the round's start and their start date), before the round's last day, while they have
 *   cases of the round left to finish — it stops the moment they finish.
 * - last_day_of_round: on the last day of a round other than the season's last, to those
 *   with cases of it left to finish.
 * - last_round: on the last day of the season's last round, to those with cases left.
 * - new_round: on the first day of rounds 2–4, to those assigned to the round who were
 *   already taking part in the season before it (a participant who starts that day is
 *   welcomed by the initial email instead), and only while they have cases of the round to
 *   take: a round that holds no published case (only drafts, or none) sends no "new patient
 *   cases for you". Round 1 has no new-round email: its participants are welcomed by the
 *   Initial Launch Email (or the season's initial variant).
 * - summary_launch: when the season's Results Summary is posted, on that day or the day
 *   after (like the initial email), to every participant who completed the season (those
 *   whose dashboard shows it). As with the initial email, a participant whose first season
 *   in the project this is gets the project's Summary Launch Email, a returning one the
 *   season's own `summary_launch` variant.
 * - summary_reminder: a week after posting, to those same participants if they have not
 *   been on the platform since it was posted (no session begun or renewed since that day).
 * No rule sends the season's `season_summary_launch` and `season_summary_reminder`: they are
 * MANUAL only (`manualOnlyEmailTypes` in the contract), sent with "Send now" when the summary
 * is posted; scheduling them as well would send everyone two emails that day. Nor does any
 * rule send the Certificate Email (`certificate_issued`): it is queued in the transaction
 * that issues a certificate (db/certificate-emails.ts), never by a day's rules.
 *
 * A participant's cases of a round are every published case placed in it, when the round is
 * one of theirs (first to last round; `assignedCases` in db/attempt-sync.ts): so `casesByRound`
 * with the participant's round range and progress says what they have left.
 */

/** Days after a summary is posted that its reminder goes. */
export const SUMMARY_REMINDER_AFTER_DAYS = 7;

export interface SeasonRound {
  number: number;
  /** `YYYY-MM-DD` */
  startDate: string;
  endDate: string;
}

export interface SeasonFacts {
  id: string;
  name: string;
  rounds: SeasonRound[];
  /** Published cases placed in each round (by round number); drafts are not counted. */
  casesByRound: Record<number, number>;
  /** The day its Results Summary was posted (`YYYY-MM-DD`), when it is posted. */
  summaryPostedOn?: string | null;
}

export interface ParticipantFacts {
  userId: string;
  /** The participant's start date in the season. */
  startDate: string;
  firstRound: number;
  lastRound: number;
  /** Assigned to an earlier season of the project. */
  returning: boolean;
  /** Cases of the running round (the round whose dates hold the day) they have completed. */
  completedInRound: number;
  /** Completed every case of the season (read only when its summary is posted). */
  completedSeason?: boolean;
  /** The last day they were on the platform (a session begun or renewed), if ever. */
  lastSeenOn?: string | null;
}

export interface DueEmail {
  type: EmailTypeValue;
  /** Whose template: the project's own, or the season's variant. */
  template: 'project' | 'season';
  roundNumber: number | null;
  /** The rule's own day, part of the email's unique key (the initial email's is the start date). */
  ruleDay: string;
  reason: string;
}

/**
 * A `YYYY-MM-DD` date as whole days since 1970, each date parsed once: the season calendar asks
 * the rules for every participant on every day of a season (410,000 times for 10,000
 * participants), and parsing the same few dates again was most of its time (issue #48).
 */
const dayNumbers = new Map<string, number>();
function dayNumber(day: string): number {
  let n = dayNumbers.get(day);
  if (n === undefined) {
    n = Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
    // Bounded: a long-running server meets new dates every day.
    if (dayNumbers.size >= 20_000) dayNumbers.clear();
    dayNumbers.set(day, n);
  }
  return n;
}

/** Days between two `YYYY-MM-DD` dates (b − a). */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The round whose dates hold the day, if any. */
export function roundOn(season: Pick<SeasonFacts, 'rounds'>, day: string): SeasonRound | undefined {
  return season.rounds.find((r) => r.startDate <= day && day <= r.endDate);
}

/** The season's last round (the highest number). */
function lastRoundOf(season: SeasonFacts): SeasonRound | undefined {
  return season.rounds.reduce<SeasonRound | undefined>(
    (last, r) => (!last || r.number > last.number ? r : last),
    undefined,
  );
}

/** Cases of the round the participant still has to finish (0 when the round has none placed). */
export function casesLeft(season: SeasonFacts, round: SeasonRound, participant: ParticipantFacts): number {
  return Math.max(0, (season.casesByRound[round.number] ?? 0) - participant.completedInRound);
}

export function emailsDue(day: string, season: SeasonFacts, participant: ParticipantFacts): DueEmail[] {
  const due: DueEmail[] = [];
  const sinceStart = daysBetween(participant.startDate, day);
  if (sinceStart === 0 || sinceStart === 1) {
    due.push({
      type: 'initial',
      template: participant.returning ? 'season' : 'project',
      roundNumber: participant.firstRound,
      ruleDay: participant.startDate,
      reason: participant.returning
        ? `Returning participant starting ${season.name} on ${participant.startDate}`
        : `Starts on ${participant.startDate} (the launch email goes on the start date or the day after)`,
    });
  }

  due.push(...summaryEmailsDue(day, season, participant));

  const round = roundOn(season, day);
  if (!round || sinceStart < 0) return due;
  if (round.number < participant.firstRound || round.number > participant.lastRound) return due;
  const left = casesLeft(season, round, participant);
  const total = season.casesByRound[round.number] ?? 0;
  // Written only for an email that is due (most participants have none on most days).
  const progress = () => `${left} of ${total} cases of round ${round.number} left to finish`;
  const isLastDay = day === round.endDate;

  if (
    left > 0 &&
    round.number >= 2 &&
    day === round.startDate &&
    participant.startDate < day &&
    participant.firstRound < round.number
  ) {
    due.push({
      type: 'new_round',
      template: 'project',
      roundNumber: round.number,
      ruleDay: day,
      reason: `Round ${round.number} begins on ${day}; ${progress()}`,
    });
  }

  if (left > 0 && isLastDay) {
    const isSeasonsLastRound = lastRoundOf(season)?.number === round.number;
    due.push({
      type: isSeasonsLastRound ? 'last_round' : 'last_day_of_round',
      template: 'project',
      roundNumber: round.number,
      ruleDay: day,
      reason: `Last day of ${isSeasonsLastRound ? 'the last round' : `round ${round.number}`}; ${progress()}`,
    });
  }

  // Every second day since the round began for this participant, before its last day.
  const roundBegan = participant.startDate > round.startDate ? participant.startDate : round.startDate;
  const sinceRoundBegan = daysBetween(roundBegan, day);
  if (left > 0 && !isLastDay && sinceRoundBegan > 0 && sinceRoundBegan % 2 === 0) {
    due.push({
      type: 'reminder',
      template: 'project',
      roundNumber: round.number,
      ruleDay: day,
      reason: `Reminder (every second day since ${roundBegan}); ${progress()}`,
    });
  }
  return due;
}

/** The launch and the reminder of a posted Results Summary. */
function summaryEmailsDue(day: string, season: SeasonFacts, participant: ParticipantFacts): DueEmail[] {
  const posted = season.summaryPostedOn;
  if (!posted || !participant.completedSeason) return [];
  const sincePosted = daysBetween(posted, day);
  if (sincePosted === 0 || sincePosted === 1) {
    return [
      {
        type: 'summary_launch',
        template: participant.returning ? 'season' : 'project',
        roundNumber: null,
        ruleDay: posted,
        reason: `The ${season.name} results summary was posted on ${posted} and they completed the season`,
      },
    ];
  }
  const seenSince =
    participant.lastSeenOn !== undefined && participant.lastSeenOn !== null && participant.lastSeenOn >= posted;
  if (sincePosted === SUMMARY_REMINDER_AFTER_DAYS && !seenSince) {
    return [
      {
        type: 'summary_reminder',
        template: participant.returning ? 'season' : 'project',
        roundNumber: null,
        ruleDay: day,
        reason: `A week since the ${season.name} results summary was posted, and not on the platform since`,
      },
    ];
  }
  return [];
}

/** Rules whose email is pointless once the participant has no case of the round left to finish. */
export const finishingRules: readonly EmailTypeValue[] = ['new_round', 'reminder', 'last_day_of_round', 'last_round'];

/** Rules whose email is pointless once the season's Results Summary is taken down. */
export const summaryRules: readonly EmailTypeValue[] = ['summary_launch', 'summary_reminder'];

/** Emails about the season's Results Summary: true only once it is posted, and only to those who completed. */
const summaryTypes: readonly EmailTypeValue[] = [...summaryRules, 'season_summary_launch', 'season_summary_reminder'];

/**
 * Whether an email sent by hand today ("Send now") is true for this participant, by the
 * schedule's own reasoning: null when it is, else why not (shown to the administrator).
 * `round` is the round the email speaks of (the one running, else the next, else the last).
 *
 * - The initial email: their start date in the season has come.
 * - A round email (reminder, last day, new round): the round has begun and not ended, it is
 *   one of theirs, it holds a published case, and they have cases of it left (`casesLeft`).
 * - A summary email: the season's summary is posted and they completed the season.
 * - Any other (a dashboard link): true for every participant of the season.
 */
export function whyNotNow(
  type: EmailTypeValue,
  day: string,
  season: SeasonFacts,
  round: SeasonRound | undefined,
  participant: ParticipantFacts | null,
): string | null {
  if (!participant) return `Not taking part in ${season.name}.`;
  if (participant.startDate > day) return `Starts on ${participant.startDate}.`;
  if (type === 'initial') return null;
  if (finishingRules.includes(type)) {
    if (!round) return `${season.name} has no round.`;
    if (round.startDate > day) return `Round ${round.number} begins on ${round.startDate}.`;
    if (round.endDate < day) return `Round ${round.number} ended on ${round.endDate}.`;
    if (round.number < participant.firstRound || round.number > participant.lastRound) {
      return `Round ${round.number} is not one of their rounds (${participant.firstRound}–${participant.lastRound}).`;
    }
    if (!(season.casesByRound[round.number] ?? 0)) return `Round ${round.number} has no published case.`;
    if (casesLeft(season, round, participant) === 0) return `Has completed the cases of round ${round.number}.`;
    return null;
  }
  if (summaryTypes.includes(type)) {
    if (!season.summaryPostedOn) return `The ${season.name} results summary is not posted.`;
    if (!participant.completedSeason) return `Has not completed ${season.name}.`;
  }
  return null;
}
