import {
  emailTypeDescriptor,
  emailTypesOnCondition,
  emailTypesSent,
  type EmailTypeValue,
  type ScheduledEmailType,
} from '@pss/contract';

/**
 * The round schedule's rules (spec §9), as one pure function of the day, a season and one
 * participant's place and progress in it: which automatic emails are due to them that day,
 * and why. The scheduler, the dry run and the tests all ask this one function; nothing
 * else decides who is emailed when. Each email type the schedule sends (`sending: 'scheduled'`
 * in its descriptor, packages/contract/src/email-types/) has its rule in `scheduleRules`,
 * which the type checker holds to exactly those types.
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
 * No rule sends the types sent by hand only (`manualOnlyEmailTypes` in the contract: the
 * season's `season_summary_launch` and `season_summary_reminder`, sent with "Send now" when the
 * summary is posted — scheduling them as well would send everyone two emails that day — and
 * the dashboard link), nor the Certificate Email (`certificate_issued`): it is queued in the
 * transaction that issues a certificate (db/certificate-emails.ts), never by a day's rules.
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

/** What the rules read of a participant's day, worked out once for them all. */
export interface RuleDay {
  day: string;
  season: SeasonFacts;
  participant: ParticipantFacts;
  /** Days since the participant's start date (negative before it). */
  sinceStart: number;
  /** The running round, when the participant has started and it is one of theirs. */
  round: SeasonRound | undefined;
  /** Cases of that round they have left to finish (0 without a round). */
  left: number;
  isLastDay: boolean;
  /** Why, in words (written only for an email that is due: most participants have none on most days). */
  progress(): string;
}

/** A rule: the email it picks for the participant that day (its type is the rule's key), or null. */
type ScheduleRule = (d: RuleDay) => Omit<DueEmail, 'type'> | null;

/** Every second day since the round began for this participant, before its last day. */
function reminderDue(d: RuleDay): Omit<DueEmail, 'type'> | null {
  const { round, participant } = d;
  if (!round || d.left === 0 || d.isLastDay) return null;
  const roundBegan = participant.startDate > round.startDate ? participant.startDate : round.startDate;
  const sinceRoundBegan = daysBetween(roundBegan, d.day);
  if (sinceRoundBegan <= 0 || sinceRoundBegan % 2 !== 0) return null;
  return {
    template: 'project',
    roundNumber: round.number,
    ruleDay: d.day,
    reason: `Reminder (every second day since ${roundBegan}); ${d.progress()}`,
  };
}

/** On a round's last day, to those with cases left: the season's last round, or another. */
function lastDayDue(d: RuleDay, ofLastRound: boolean): Omit<DueEmail, 'type'> | null {
  const { round } = d;
  if (!round || d.left === 0 || !d.isLastDay) return null;
  if ((lastRoundOf(d.season)?.number === round.number) !== ofLastRound) return null;
  return {
    template: 'project',
    roundNumber: round.number,
    ruleDay: d.day,
    reason: `Last day of ${ofLastRound ? 'the last round' : `round ${round.number}`}; ${d.progress()}`,
  };
}

/** The day the season's summary was posted, when it is and the participant completed the season. */
const summaryPostedFor = (d: Pick<RuleDay, 'season' | 'participant'>) =>
  (d.participant.completedSeason ? d.season.summaryPostedOn : null) ?? null;

/**
 * The rules, one per scheduled email type, asked in this order (so a day's emails come out in
 * it). The launch emails of a first season in the project are the project's templates, a
 * returning participant's the season's own variants.
 */
export const scheduleRules: Record<ScheduledEmailType, ScheduleRule> = {
  initial: ({ sinceStart, season, participant }) =>
    sinceStart === 0 || sinceStart === 1
      ? {
          template: participant.returning ? 'season' : 'project',
          roundNumber: participant.firstRound,
          ruleDay: participant.startDate,
          reason: participant.returning
            ? `Returning participant starting ${season.name} on ${participant.startDate}`
            : `Starts on ${participant.startDate} (the launch email goes on the start date or the day after)`,
        }
      : null,
  summary_launch: ({ season, participant, day }) => {
    const posted = summaryPostedFor({ season, participant });
    const since = posted ? daysBetween(posted, day) : null;
    if (!posted || (since !== 0 && since !== 1)) return null;
    return {
      template: participant.returning ? 'season' : 'project',
      roundNumber: null,
      ruleDay: posted,
      reason: `The ${season.name} results summary was posted on ${posted} and they completed the season`,
    };
  },
  summary_reminder: ({ season, participant, day }) => {
    const posted = summaryPostedFor({ season, participant });
    if (!posted || daysBetween(posted, day) !== SUMMARY_REMINDER_AFTER_DAYS) return null;
    const seenSince =
      participant.lastSeenOn !== undefined && participant.lastSeenOn !== null && participant.lastSeenOn >= posted;
    if (seenSince) return null;
    return {
      template: participant.returning ? 'season' : 'project',
      roundNumber: null,
      ruleDay: day,
      reason: `A week since the ${season.name} results summary was posted, and not on the platform since`,
    };
  },
  new_round: ({ round, left, day, participant, progress }) =>
    round &&
    left > 0 &&
    round.number >= 2 &&
    day === round.startDate &&
    participant.startDate < day &&
    participant.firstRound < round.number
      ? {
          template: 'project',
          roundNumber: round.number,
          ruleDay: day,
          reason: `Round ${round.number} begins on ${day}; ${progress()}`,
        }
      : null,
  last_day_of_round: (d) => lastDayDue(d, false),
  last_round: (d) => lastDayDue(d, true),
  reminder: reminderDue,
};
const scheduledTypes = Object.keys(scheduleRules) as ScheduledEmailType[];

export function emailsDue(day: string, season: SeasonFacts, participant: ParticipantFacts): DueEmail[] {
  const sinceStart = daysBetween(participant.startDate, day);
  const running = sinceStart < 0 ? undefined : roundOn(season, day);
  const round =
    running && running.number >= participant.firstRound && running.number <= participant.lastRound
      ? running
      : undefined;
  const left = round ? casesLeft(season, round, participant) : 0;
  const d: RuleDay = {
    day,
    season,
    participant,
    sinceStart,
    round,
    left,
    isLastDay: day === round?.endDate,
    progress: () =>
      `${left} of ${season.casesByRound[round?.number ?? 0] ?? 0} cases of round ${round?.number} left to finish`,
  };
  const due: DueEmail[] = [];
  for (const type of scheduledTypes) {
    const email = scheduleRules[type](d);
    if (email) due.push({ type, ...email });
  }
  return due;
}

/** Rules whose email is pointless once the participant has no case of the round left to finish. */
export const finishingRules: readonly EmailTypeValue[] = emailTypesOnCondition('round-unfinished');

/** Rules whose email is pointless once the season's Results Summary is taken down. */
export const summaryRules: readonly EmailTypeValue[] = emailTypesOnCondition('summary-posted').filter((type) =>
  emailTypesSent('scheduled').includes(type),
);

/**
 * Whether an email sent by hand today ("Send now") is true for this participant, by the
 * schedule's own reasoning: null when it is, else why not (shown to the administrator).
 * `round` is the round the email speaks of (the one running, else the next, else the last).
 *
 * By the type's condition (`EmailCondition` in the contract's email-types/email-type.ts):
 * - `started` (the initial email): their start date in the season has come.
 * - `round-unfinished` (reminder, last day, new round): the round has begun and not ended, it
 *   is one of theirs, it holds a published case, and they have cases of it left (`casesLeft`).
 * - `summary-posted`: the season's summary is posted and they completed the season.
 * - `none` (a dashboard link): true for every participant of the season.
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
  switch (emailTypeDescriptor(type).condition) {
    case 'none':
    case 'started':
    case 'certificate':
      return null;
    case 'round-unfinished':
      if (!round) return `${season.name} has no round.`;
      if (round.startDate > day) return `Round ${round.number} begins on ${round.startDate}.`;
      if (round.endDate < day) return `Round ${round.number} ended on ${round.endDate}.`;
      if (round.number < participant.firstRound || round.number > participant.lastRound) {
        return `Round ${round.number} is not one of their rounds (${participant.firstRound}–${participant.lastRound}).`;
      }
      if (!(season.casesByRound[round.number] ?? 0)) return `Round ${round.number} has no published case.`;
      if (casesLeft(season, round, participant) === 0) return `Has completed the cases of round ${round.number}.`;
      return null;
    case 'summary-posted':
      if (!season.summaryPostedOn) return `The ${season.name} results summary is not posted.`;
      if (!participant.completedSeason) return `Has not completed ${season.name}.`;
      return null;
  }
}
