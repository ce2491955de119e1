import { addDays } from '../src/modules/emails/email-rules.js';
import type { Clinician, SeasonPlan } from './season-plan.js';
import type { SimulatedCase } from './sim-operator.js';

/**
 * What the simulated clinicians did, as they saw it acknowledged: each case started,
 * answered and submitted, with the virtual moment and the score the app answered. The
 * figures the app shows are checked against what this record says they must be.
 */

export interface CaseWork {
  attemptId: string;
  startedAt: Date | null;
  completedAt: Date | null;
  score: number | null;
  /** The acknowledged answers: question id → the choices picked. */
  answers: Map<string, string[]>;
}

export interface ClinicianRecord {
  clinician: Clinician;
  /** caseId → their work on it (only the cases they opened). */
  work: Map<string, CaseWork>;
  /** Days they signed in or renewed a session. */
  seenOn: Set<string>;
}

export interface TruthFigures {
  total: number;
  participating: number;
  casesUnlocked: number;
  casesCompleted: number;
  participantsCompleted: number;
  byRound: { round_number: number; assigned: number; participating: number; completed: number }[];
  cases: { case_id: string; assigned: number; started: number; completed: number; average_score: number | null }[];
  completionsByDay: { date: string; completed: number }[];
}

export function groundTruth(plan: SeasonPlan, cases: SimulatedCase[]) {
  const records = new Map<string, ClinicianRecord>(
    plan.clinicians.map((c) => [c.email, { clinician: c, work: new Map(), seenOn: new Set() }]),
  );
  const roundStart = (n: number) => plan.rounds[n - 1]!.startDate;

  /** The cases a clinician is assigned: every case of their rounds, unlocking on the later of round start and their start. */
  function casesOf(c: Clinician) {
    return cases
      .filter((k) => k.roundNumber >= c.firstRound && k.roundNumber <= c.lastRound)
      .map((k) => ({
        case: k,
        unlocksOn: roundStart(k.roundNumber) > c.startDate ? roundStart(k.roundNumber) : c.startDate,
      }));
  }

  const startedBy = (w: CaseWork | undefined, at: Date) => Boolean(w?.startedAt && w.startedAt <= at);
  const completedBy = (w: CaseWork | undefined, at: Date) => Boolean(w?.completedAt && w.completedAt <= at);

  /** Whether every case of the round (of theirs) was completed before the moment. */
  function roundDone(record: ClinicianRecord, roundNumber: number, at: Date): boolean {
    const inRound = cases.filter((k) => k.roundNumber === roundNumber);
    return inRound.length > 0 && inRound.every((k) => completedBy(record.work.get(k.id), at));
  }

  /** Whether they completed every case assigned to them before the moment. */
  function seasonDone(record: ClinicianRecord, at: Date): boolean {
    const theirs = casesOf(record.clinician);
    return theirs.length > 0 && theirs.every((k) => completedBy(record.work.get(k.case.id), at));
  }

  /** The Progress Dashboard's figures as they must read at a moment whose schedule day is `today`. */
  function figures(today: string, at: Date, localDay: (d: Date) => string): TruthFigures {
    const all = [...records.values()];
    const perRound = new Map<number, { assigned: number; participating: number; completed: number }>(
      plan.rounds.map((r) => [r.number, { assigned: 0, participating: 0, completed: 0 }]),
    );
    const perCase = new Map(
      cases.map((k) => [k.id, { assigned: 0, started: 0, completed: 0, scores: [] as number[] }]),
    );
    const byDay = new Map<string, number>();
    let participating = 0;
    let casesUnlocked = 0;
    let casesCompleted = 0;
    let participantsCompleted = 0;
    for (const record of all) {
      const c = record.clinician;
      const theirs = casesOf(c);
      let unlocked = 0;
      let completed = 0;
      for (const { case: k, unlocksOn } of theirs) {
        const w = record.work.get(k.id);
        const tally = perCase.get(k.id)!;
        tally.assigned += 1;
        if (startedBy(w, at)) tally.started += 1;
        if (completedBy(w, at)) {
          tally.completed += 1;
          tally.scores.push(w!.score!);
          const day = localDay(w!.completedAt!);
          byDay.set(day, (byDay.get(day) ?? 0) + 1);
        }
        if (unlocksOn <= today) {
          unlocked += 1;
          if (completedBy(w, at)) completed += 1;
        }
      }
      if (theirs.some(({ case: k }) => startedBy(record.work.get(k.id), at))) participating += 1;
      casesUnlocked += unlocked;
      casesCompleted += completed;
      if (unlocked > 0 && completed === unlocked) participantsCompleted += 1;
      for (const round of plan.rounds) {
        if (round.number < c.firstRound || round.number > c.lastRound) continue;
        const tally = perRound.get(round.number)!;
        tally.assigned += 1;
        const inRound = theirs.filter(({ case: k }) => k.roundNumber === round.number);
        if (inRound.some(({ case: k }) => startedBy(record.work.get(k.id), at))) tally.participating += 1;
        const open = inRound.filter(({ unlocksOn }) => unlocksOn <= today);
        if (open.length && open.every(({ case: k }) => completedBy(record.work.get(k.id), at))) tally.completed += 1;
      }
    }
    return {
      total: all.length,
      participating,
      casesUnlocked,
      casesCompleted,
      participantsCompleted,
      byRound: [...perRound].map(([round_number, t]) => ({ round_number, ...t })),
      cases: [...perCase].map(([case_id, t]) => ({
        case_id,
        assigned: t.assigned,
        started: t.started,
        completed: t.completed,
        average_score: t.scores.length
          ? Math.round((10 * t.scores.reduce((a, b) => a + b, 0)) / t.scores.length) / 10
          : null,
      })),
      completionsByDay: Array.from({ length: 14 }, (_, i) => {
        const date = addDays(today, i - 13);
        return { date, completed: byDay.get(date) ?? 0 };
      }),
    };
  }

  return { records, casesOf, roundDone, seasonDone, figures, startedBy, completedBy };
}

export type GroundTruth = ReturnType<typeof groundTruth>;
