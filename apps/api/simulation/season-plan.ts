import { addDays } from '../src/modules/emails/email-rules.js';

/**
 * What a simulated season is made of, drawn from a seed: its rounds' dates, the clinicians
 * imported into it and the behaviour each one follows. The same options and seed make the
 * same season, so a failure found once is found again.
 */

export const behaviours = ['prompt', 'needs_reminders', 'late', 'drops_out', 'never_starts'] as const;
export type Behaviour = (typeof behaviours)[number];

/** The share of clinicians following each behaviour (they add up to 1). */
const behaviourMix: Record<Behaviour, number> = {
  prompt: 0.3,
  needs_reminders: 0.25,
  late: 0.15,
  drops_out: 0.15,
  never_starts: 0.15,
};

export interface SimulationOptions {
  participants: number;
  rounds: number;
  seed: number;
  /** Published cases placed in each round. */
  casesPerRound: number;
  /** Days each round lasts. */
  roundDays: number;
  /** The first round's first day (`YYYY-MM-DD`); March 2027 crosses a change of clock in Chicago. */
  seasonStart: string;
}

export const defaultOptions: SimulationOptions = {
  participants: 50,
  rounds: 4,
  seed: 7,
  casesPerRound: 2,
  roundDays: 14,
  seasonStart: '2027-03-01',
};

export interface PlannedRound {
  number: number;
  startDate: string;
  endDate: string;
}

export interface Clinician {
  /** Position in the import (0-based); names their email address. */
  index: number;
  email: string;
  firstName: string;
  lastName: string;
  profession: 'MD' | 'DO' | 'AS' | 'MSW';
  firstRound: number;
  lastRound: number;
  startDate: string;
  behaviour: Behaviour;
  /** The chance of picking a question's right choices, 0–1. */
  skill: number;
  /** needs_reminders: the reminders of a round they wait for before acting. */
  remindersNeeded: number;
  /** drops_out: the round in which they stop (half-way through its first case). */
  dropsInRound: number;
  /** Whether they do a round's cases in two sittings on one day (the second on a renewed session). */
  twoSittings: boolean;
  /** Whether they open the email of a posted summary. */
  readsSummary: boolean;
  /**
   * Whether their address bounces: every message to it comes back as a hard bounce (the
   * simulation's mail provider reports it), so they never get a link and never sign in.
   */
  bounces: boolean;
}

export interface SeasonPlan {
  options: SimulationOptions;
  seasonName: string;
  rounds: PlannedRound[];
  /** The day the operator posts the season's Results Summary (two days after the last round). */
  summaryPostedOn: string;
  /** The first and last day walked: the day before the season to the day after the summary's reminder. */
  firstDay: string;
  lastDay: string;
  clinicians: Clinician[];
}

/** mulberry32: a small, fast generator whose sequence a seed fixes. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const firstNames = ['Ana', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jon', 'Kemi', 'Luis'];
const lastNames = ['Alvarez', 'Brown', 'Chen', 'Diallo', 'Evans', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jones'];
const professions = ['MD', 'DO', 'AS', 'MSW'] as const;

export function planSeason(options: SimulationOptions): SeasonPlan {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const rounds = Array.from({ length: options.rounds }, (_, i) => ({
    number: i + 1,
    startDate: addDays(options.seasonStart, i * options.roundDays),
    endDate: addDays(options.seasonStart, (i + 1) * options.roundDays - 1),
  }));
  const lastRound = rounds[rounds.length - 1]!;
  const summaryPostedOn = addDays(lastRound.endDate, 2);

  const clinicians = Array.from({ length: options.participants }, (_, index): Clinician => {
    // About one in seven joins at the second round (rounds 2 to the last), when there is one.
    const joinsLate = options.rounds > 1 && random() < 0.15;
    const firstRound = joinsLate ? 2 : 1;
    const behaviour = drawBehaviour(random());
    return {
      index,
      email: `clinician-${String(index + 1).padStart(5, '0')}@simulation.example`,
      firstName: pick(firstNames),
      lastName: `${pick(lastNames)}-${index + 1}`,
      profession: pick(professions),
      firstRound,
      lastRound: options.rounds,
      startDate: rounds[firstRound - 1]!.startDate,
      behaviour,
      skill: 0.35 + random() * 0.6,
      remindersNeeded: 1 + Math.floor(random() * 3),
      dropsInRound: firstRound + Math.floor(random() * Math.max(1, options.rounds - firstRound)),
      twoSittings: random() < 0.3,
      readsSummary: random() < 0.5,
      bounces: false,
    };
  });
  for (const index of bouncingIndices(options)) clinicians[index]!.bounces = true;

  return {
    options,
    seasonName: 'Simulated Season',
    rounds,
    summaryPostedOn,
    firstDay: addDays(options.seasonStart, -1),
    lastDay: addDays(summaryPostedOn, 8),
    clinicians,
  };
}

/** About one in forty clinicians has an address that bounces: at least one when there are 20 or more. */
export const BOUNCING_SHARE = 1 / 40;

/**
 * Who bounces, drawn from a generator of its own so that the rest of the plan (behaviours,
 * skills) stays what the seed made it before bounces were simulated.
 */
function bouncingIndices(options: SimulationOptions): Set<number> {
  const n = options.participants;
  const count = n >= 20 ? Math.max(1, Math.round(n * BOUNCING_SHARE)) : 0;
  const random = seededRandom(options.seed * 7_919 + 40);
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(random() * n));
  return chosen;
}

function drawBehaviour(draw: number): Behaviour {
  let sum = 0;
  for (const behaviour of behaviours) {
    sum += behaviourMix[behaviour];
    if (draw < sum) return behaviour;
  }
  return 'never_starts';
}

/** The round whose dates hold the day, if any. */
export function roundOnDay(plan: SeasonPlan, day: string): PlannedRound | undefined {
  return plan.rounds.find((r) => r.startDate <= day && day <= r.endDate);
}

/** The participant import file (the columns of a project's participant CSV). */
export function participantsCsv(plan: SeasonPlan): string {
  const header = 'user_id,salutation,first_name,last_name,email,role,profession,season,rounds,start_date';
  const rows = plan.clinicians.map((c) =>
    [
      `SIM-${c.index + 1}`,
      c.profession === 'MSW' ? 'Ms.' : 'Dr.',
      c.firstName,
      c.lastName,
      c.email,
      'HALFUSER',
      c.profession,
      plan.seasonName,
      `${c.firstRound}-${c.lastRound}`,
      c.startDate,
    ].join(','),
  );
  return [header, ...rows].join('\r\n') + '\r\n';
}
