import type { Attempt, Dashboard } from '@pss/contract';
import { seededRandom, roundOnDay, type Clinician, type SeasonPlan } from './season-plan.js';
import type { ClinicianRecord, GroundTruth } from './ground-truth.js';
import type { HttpClient, HttpSession } from './sim-http.js';
import type { SimulatedCase } from './sim-operator.js';

/**
 * The simulated clinicians. Each follows the behaviour the plan drew for them, reads the
 * email that reached them, signs in through its link, and works through the real calls:
 * dashboard, start, one answer per question, submit — and reads each case back after.
 */

/** An email as a clinician reads it: its type (from the subject's tag), day and link. */
export interface Letter {
  to: string;
  type: string;
  day: string;
  at: Date;
  /** The dashboard link's token. */
  token: string | null;
}

/** Something a clinician saw go wrong: an acknowledged answer not stored. */
export interface LostAnswer {
  email: string;
  caseName: string;
  questionId: string;
}

interface ClinicianState {
  record: ClinicianRecord;
  random: () => number;
  session: HttpSession;
  /** Letters not yet read. */
  unread: Letter[];
  remindersByRound: Map<number, number>;
  /** A second sitting the same evening (the round's other cases). */
  sittingLater: boolean;
  stopped: boolean;
}

/** At most this many clinicians call at once (a busy morning, not a flood). */
const CONCURRENCY = 8;

export function clinicians(deps: { plan: SeasonPlan; http: HttpClient; truth: GroundTruth; cases: SimulatedCase[] }) {
  const { plan, http, truth, cases } = deps;
  const states = new Map<string, ClinicianState>();
  for (const record of truth.records.values()) {
    states.set(record.clinician.email, {
      record,
      random: seededRandom(plan.options.seed * 100_003 + record.clinician.index),
      session: { token: null, cookie: null },
      unread: [],
      remindersByRound: new Map(),
      sittingLater: false,
      stopped: false,
    });
  }
  const caseById = new Map(cases.map((k) => [k.id, k]));
  const lost: LostAnswer[] = [];
  let startedToday = 0;
  let completedToday = 0;

  function deliver(letter: Letter): boolean {
    const state = states.get(letter.to);
    if (!state) return false;
    state.unread.push(letter);
    return true;
  }

  /** The day's first sitting: each clinician reads their new mail and does what their behaviour says. */
  async function firstSitting(day: string, now: Date): Promise<void> {
    await eachConcurrently([...states.values()], (state) => sitting(state, day, now, 'first'));
  }

  /** The evening: those who split their work come back on a renewed session. */
  async function secondSitting(day: string, now: Date): Promise<void> {
    const later = [...states.values()].filter((s) => s.sittingLater);
    await eachConcurrently(later, (state) => sitting(state, day, now, 'second'));
  }

  async function sitting(state: ClinicianState, day: string, now: Date, which: 'first' | 'second'): Promise<void> {
    const c = state.record.clinician;
    if (which === 'second') {
      state.sittingLater = false;
      if (!(await renew(state, day))) return;
      await workOn(state, day, now, Infinity);
      return;
    }
    const letters = state.unread.splice(0);
    if (!letters.length || state.stopped) return;
    for (const letter of letters) {
      if (letter.type !== 'reminder') continue;
      const round = roundOnDay(plan, letter.day)?.number ?? 0;
      state.remindersByRound.set(round, (state.remindersByRound.get(round) ?? 0) + 1);
    }
    const intent = intentOf(state, letters, day, now);
    if (!intent) return;
    const letter = [...letters].reverse().find((l) => l.token);
    if (!letter?.token) return;
    const signedIn = await http.call<{ access_token: string }>(state.session, 'POST', '/auth/login/halfuser', {
      token: letter.token,
    });
    state.session.token = signedIn.access_token;
    state.record.seenOn.add(day);
    if (intent === 'read') {
      await http.call(state.session, 'GET', '/dashboard');
      return;
    }
    if (intent === 'abandon') {
      await abandon(state, now);
      state.stopped = true;
      return;
    }
    const first = c.twoSittings ? 1 : Infinity;
    const remaining = await workOn(state, day, now, first);
    if (remaining > 0) state.sittingLater = true;
  }

  /**
   * What the clinician's behaviour makes of the day's mail: work through the cases left,
   * start one and leave for good (drops out), only open the dashboard (the summary's email),
   * or nothing.
   */
  function intentOf(
    state: ClinicianState,
    letters: Letter[],
    day: string,
    now: Date,
  ): 'work' | 'abandon' | 'read' | null {
    const c = state.record.clinician;
    const round = roundOnDay(plan, day);
    const types = new Set(letters.map((l) => l.type));
    const casesLeft = truth
      .casesOf(c)
      .some(({ case: k, unlocksOn }) => unlocksOn <= day && !truth.completedBy(state.record.work.get(k.id), now));
    if (casesLeft && round && round.number >= c.firstRound) {
      const lastCall = types.has('last_day_of_round') || types.has('last_round');
      const reminded = (state.remindersByRound.get(round.number) ?? 0) >= c.remindersNeeded;
      switch (c.behaviour) {
        case 'prompt':
          return 'work';
        case 'needs_reminders':
          if (lastCall || reminded) return 'work';
          break;
        case 'late':
          if (lastCall) return 'work';
          break;
        case 'drops_out':
          return round.number >= c.dropsInRound ? 'abandon' : 'work';
        case 'never_starts':
          break;
      }
    }
    return c.readsSummary && types.has('summary_launch') ? 'read' : null;
  }

  /** Renews the session with the refresh cookie, as the app does when a tab comes back. */
  async function renew(state: ClinicianState, day: string): Promise<boolean> {
    const reply = await http.send(state.session, 'GET', '/auth/user/refresh');
    if (reply.status !== 200) return false;
    state.session.token = (JSON.parse(reply.text) as { access_token: string }).access_token;
    state.record.seenOn.add(day);
    return true;
  }

  /** Completes up to `limit` of the unlocked cases left; answers how many are left after. */
  async function workOn(state: ClinicianState, day: string, now: Date, limit: number): Promise<number> {
    const dashboard = await http.call<Dashboard>(state.session, 'GET', '/dashboard');
    const open = dashboard.projects
      .flatMap((p) => p.cases)
      .filter((k) => k.unlocked && !k.closed && k.status !== 'COMPLETE')
      .sort((a, b) => a.round_number - b.round_number || a.case_name.localeCompare(b.case_name));
    let done = 0;
    for (const entry of open) {
      if (done >= limit) break;
      await completeCase(state, entry.id, now);
      done += 1;
    }
    return open.length - done;
  }

  async function completeCase(state: ClinicianState, attemptId: string, now: Date): Promise<void> {
    const attempt = await begin(state, attemptId, now);
    const work = state.record.work.get(attempt.case.id)!;
    const simulated = caseById.get(attempt.case.id)!;
    for (const question of simulated.document.questions) {
      if (work.answers.has(question.id)) continue;
      await answer(state, attemptId, work, question.id, choose(state, question));
    }
    const submitted = await http.call<Attempt>(state.session, 'POST', `/cases/${attemptId}/submit`);
    work.completedAt = now;
    work.score = submitted.result?.score ?? null;
    completedToday += 1;
    await readBack(state, attemptId, work, simulated.name);
  }

  /** Starts the first case left and answers half its questions, then leaves for good. */
  async function abandon(state: ClinicianState, now: Date): Promise<void> {
    const dashboard = await http.call<Dashboard>(state.session, 'GET', '/dashboard');
    const entry = dashboard.projects.flatMap((p) => p.cases).find((k) => k.unlocked && k.status === 'NOT_STARTED');
    if (!entry) return;
    const attempt = await begin(state, entry.id, now);
    const work = state.record.work.get(attempt.case.id)!;
    const simulated = caseById.get(attempt.case.id)!;
    const half = simulated.document.questions.slice(0, Math.ceil(simulated.document.questions.length / 2));
    for (const question of half) await answer(state, entry.id, work, question.id, choose(state, question));
    await readBack(state, entry.id, work, simulated.name);
  }

  async function begin(state: ClinicianState, attemptId: string, now: Date): Promise<Attempt> {
    const attempt = await http.call<Attempt>(state.session, 'GET', `/users/${attemptId}/questions`);
    let work = state.record.work.get(attempt.case.id);
    if (!work) {
      work = { attemptId, startedAt: null, completedAt: null, score: null, answers: new Map() };
      state.record.work.set(attempt.case.id, work);
    }
    if (attempt.status === 'NOT_STARTED') {
      await http.call<Attempt>(state.session, 'POST', `/cases/${attemptId}/start`);
      work.startedAt = now;
      startedToday += 1;
    }
    return attempt;
  }

  async function answer(
    state: ClinicianState,
    attemptId: string,
    work: { answers: Map<string, string[]> },
    questionId: string,
    choiceIds: string[],
  ) {
    await http.call(state.session, 'POST', `/cases/${attemptId}/answer`, {
      question_id: questionId,
      choice_ids: choiceIds,
    });
    work.answers.set(questionId, choiceIds);
  }

  /** Reads the case back as the clinician would on reopening it: every acknowledged answer must be there. */
  async function readBack(
    state: ClinicianState,
    attemptId: string,
    work: { answers: Map<string, string[]> },
    caseName: string,
  ) {
    const stored = await http.call<Attempt>(state.session, 'GET', `/users/${attemptId}/questions`);
    const byQuestion = new Map(stored.answers.map((a) => [a.question_id, [...a.choice_ids].sort().join()]));
    for (const [questionId, choiceIds] of work.answers) {
      if (byQuestion.get(questionId) !== [...choiceIds].sort().join()) {
        lost.push({ email: state.record.clinician.email, caseName, questionId });
      }
    }
  }

  /** The choices a clinician of their skill picks: the necessary ones when they know, a wrong one when not. */
  function choose(state: ClinicianState, question: SimulatedCase['document']['questions'][number]): string[] {
    const { skill } = state.record.clinician;
    const right = question.choices.filter((ch) => ch.marked_as === 'NECESSARY');
    const wrong = question.choices.filter((ch) => ch.marked_as !== 'NECESSARY');
    if (question.type !== 'MULTI_MANY') {
      const pool = state.random() < skill ? right : wrong;
      return [pool[Math.floor(state.random() * pool.length)]!.id];
    }
    const picked = [
      ...right.filter(() => state.random() < skill),
      ...wrong.filter(() => state.random() < (1 - skill) / 2),
    ];
    return (picked.length ? picked : [question.choices[0]!]).map((ch) => ch.id);
  }

  return {
    deliver,
    firstSitting,
    secondSitting,
    lost,
    /** Cases started and completed since the last call. */
    takeCounts() {
      const counts = { started: startedToday, completed: completedToday };
      startedToday = 0;
      completedToday = 0;
      return counts;
    },
  };
}

export type Clinicians = ReturnType<typeof clinicians>;
export type { Clinician };

async function eachConcurrently<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(workers);
}
