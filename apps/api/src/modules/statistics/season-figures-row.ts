import type {
  CaseCompletion,
  CompletionRate,
  CompletionsByDay,
  ParticipationRate,
  RoundStatistics,
} from '@pss/contract';
import { int, rate } from './season-work.js';

/** The completion chart's span (spec §9: the last two weeks). */
export const CHART_DAYS = 14;

/** The season's figures the dashboard's tiles and charts show, read together. */
export interface SeasonFigures {
  participation: ParticipationRate;
  caseCompletion: CompletionRate;
  participantCompletion: CompletionRate;
  byRound: RoundStatistics[];
  cases: CaseCompletion[];
  completionsByDay: CompletionsByDay['items'];
}

/**
 * The one row both readings of a season's figures answer — from its work
 * (apps/api/test/season-figures-reference.ts, the reference) and from the kept counts
 * (kept-figures.repository.ts) — so that one mapping makes the figures of either.
 */
export type SeasonFiguresRow = {
  total: number;
  participating: number;
  cases_completed: number;
  cases_unlocked: number;
  participants_completed: number;
  rounds: { round_number: number; assigned: number; participating: number; completed: number }[] | null;
  cases:
    | {
        case_id: string;
        case_name: string;
        round_number: number;
        assigned: number;
        started: number;
        completed: number;
        average_score: string | number | null;
      }[]
    | null;
  by_day: { date: string; completed: number }[];
};

export function figuresOf(row: SeasonFiguresRow): SeasonFigures {
  const total = int(row.total);
  const participantsCompleted = int(row.participants_completed);
  return {
    participation: { participating: int(row.participating), total, rate: rate(int(row.participating), total) },
    caseCompletion: {
      type: 'CASES',
      completed: int(row.cases_completed),
      total: int(row.cases_unlocked),
      rate: rate(int(row.cases_completed), int(row.cases_unlocked)),
    },
    participantCompletion: {
      type: 'PARTICIPANTS',
      completed: participantsCompleted,
      total,
      rate: rate(participantsCompleted, total),
    },
    byRound: (row.rounds ?? []).map((r) => ({
      round_number: r.round_number,
      assigned: int(r.assigned),
      participating: int(r.participating),
      completed: int(r.completed),
      participation_rate: rate(int(r.participating), int(r.assigned)),
      completion_rate: rate(int(r.completed), int(r.assigned)),
    })),
    cases: (row.cases ?? []).map((r) => ({
      case_id: r.case_id,
      case_name: r.case_name,
      round_number: r.round_number,
      assigned: int(r.assigned),
      started: int(r.started),
      completed: int(r.completed),
      completion_rate: rate(int(r.completed), int(r.assigned)),
      average_score: r.average_score === null ? null : Number(r.average_score),
    })),
    completionsByDay: row.by_day.map((d) => ({ date: d.date, completed: int(d.completed) })),
  };
}
