import Papa from 'papaparse';
import type {
  CaseCompletion,
  CompletionRate,
  CompletionsByDay,
  ParticipationRate,
  RoundStatistics,
} from '@pss/contract';
import { dayIn } from '../src/lib/clock.js';
import { expectedEmails, letterKey, remindedRound, type Expectation } from './email-oracle.js';
import type { GroundTruth } from './ground-truth.js';
import type { InvariantLedger } from './invariants.js';
import type { SeasonPlan } from './season-plan.js';
import type { Letter } from './sim-clinicians.js';
import type { HttpClient, HttpSession } from './sim-http.js';
import type { SeasonSetup } from './sim-operator.js';
import { SIMULATION_TIME_ZONE } from './simulation-app.js';

/** The checks the simulation makes each day against its ground truth. */
export function seasonChecks(deps: {
  plan: SeasonPlan;
  truth: GroundTruth;
  setup: SeasonSetup;
  http: HttpClient;
  ledger: InvariantLedger;
  /** When the address's bounce was reported (it is suppressed from then on), if it bounced. */
  suppressedSince: (address: string) => Date | undefined;
}) {
  const { plan, truth, setup, http, ledger, suppressedSince } = deps;
  const receivedKeys = new Set<string>();
  const expectedToday = new Map<string, Expectation & { to: string }>();
  let duplicates = 0;
  let sentAfterCompletion = 0;
  const summaryRecipients = new Set<string>();

  /** A schedule run's mail: each letter against the oracle; what the oracle wanted noted for the day's end. */
  function checkRun(day: string, at: Date, letters: Letter[], summaryPosted: boolean): void {
    const wanted = new Map<string, Expectation>();
    for (const record of truth.records.values()) {
      const since = suppressedSince(record.clinician.email);
      for (const e of expectedEmails(plan, truth, record, day, at, summaryPosted, since)) {
        wanted.set(e.key, e);
        expectedToday.set(e.key, { ...e, to: record.clinician.email });
      }
    }
    for (const letter of letters) {
      const record = truth.records.get(letter.to);
      const key = letterKey(letter, plan);
      const since = suppressedSince(letter.to);
      if (since && letter.at.getTime() > since.getTime()) {
        ledger.fail(
          'nothing_to_suppressed',
          `${day}: ${letter.type} to ${letter.to}, suppressed since ${since.toISOString()}`,
        );
        continue;
      }
      if (!record) {
        ledger.fail('emails_only_on_rule_days', `${day}: ${letter.type} to ${letter.to}, who is not a participant`);
        continue;
      }
      if (receivedKeys.has(key)) {
        duplicates += 1;
        ledger.fail('each_email_once', `${day}: a second ${letter.type} to ${letter.to}`);
        continue;
      }
      receivedKeys.add(key);
      if (letter.type === 'summary_launch' || letter.type === 'summary_reminder') {
        if (letter.type === 'summary_launch') summaryRecipients.add(letter.to);
        if (!truth.seasonDone(record, at)) {
          ledger.fail(
            'summary_to_completers',
            `${day}: ${letter.type} to ${letter.to}, who did not complete the season`,
          );
          continue;
        }
      }
      const round = remindedRound(letter, plan);
      if (round !== null && truth.roundDone(record, round, at)) {
        sentAfterCompletion += 1;
        ledger.fail(
          'no_email_after_completion',
          `${day}: ${letter.type} to ${letter.to}, who had completed round ${round}`,
        );
        continue;
      }
      if (!wanted.has(key)) {
        ledger.fail('emails_only_on_rule_days', `${day}: ${letter.type} to ${letter.to}, which no rule picks that day`);
      }
    }
  }

  /** At the day's end: every email some run of the day wanted has arrived. */
  function checkDayComplete(day: string): void {
    for (const [key, e] of expectedToday) {
      if (!receivedKeys.has(key)) ledger.fail('every_scheduled_email_sent', `${day}: no ${e.type} reached ${e.to}`);
    }
    expectedToday.clear();
  }

  /** After the summary's reminder: its launch reached exactly those who completed the season. */
  function checkSummaryReach(at: Date): void {
    for (const record of truth.records.values()) {
      const done = truth.seasonDone(record, at);
      const got = summaryRecipients.has(record.clinician.email);
      if (done && !got)
        ledger.fail('summary_to_completers', `${record.clinician.email} completed the season; no summary email`);
    }
  }

  const seasonQuery = `seasonName=${encodeURIComponent(plan.seasonName)}`;
  const statistics = (session: HttpSession, what: string, extra = '') =>
    http.call(session, 'GET', `/statistics/${setup.projectId}/${what}?${seasonQuery}${extra}`);

  /** The Progress Dashboard's figures, read as an administrator reads them, against the truth. */
  async function checkStatistics(session: HttpSession, day: string, at: Date): Promise<void> {
    const want = truth.figures(day, at, (d) => dayIn(SIMULATION_TIME_ZONE, d));
    const participation = (await statistics(session, 'overal-participation-rate')) as ParticipationRate;
    const cases = (await statistics(session, 'overal-completion-rate', '&type=CASES')) as CompletionRate;
    const people = (await statistics(session, 'overal-completion-rate', '&type=PARTICIPANTS')) as CompletionRate;
    const byRound = ((await statistics(session, 'participation-completion-by-round')) as { items: RoundStatistics[] })
      .items;
    const perCase = ((await statistics(session, 'case-completion')) as { items: CaseCompletion[] }).items;
    const byDay = ((await statistics(session, 'completions-by-day')) as CompletionsByDay).items;
    const same = (what: string, got: unknown, wanted: unknown) => {
      if (JSON.stringify(got) !== JSON.stringify(wanted)) {
        ledger.fail(
          'statistics_match',
          `${day} ${what}: the app shows ${JSON.stringify(got)}, the clinicians did ${JSON.stringify(wanted)}`,
        );
      }
    };
    same('participation', [participation.participating, participation.total], [want.participating, want.total]);
    same('case completion', [cases.completed, cases.total], [want.casesCompleted, want.casesUnlocked]);
    same('participant completion', [people.completed, people.total], [want.participantsCompleted, want.total]);
    same(
      'by round',
      byRound.map((r) => [r.round_number, r.assigned, r.participating, r.completed]),
      want.byRound.map((r) => [r.round_number, r.assigned, r.participating, r.completed]),
    );
    const wantCase = new Map(want.cases.map((k) => [k.case_id, k]));
    same(
      'per case',
      perCase.map((k) => [k.case_name, k.assigned, k.started, k.completed, k.average_score]),
      perCase.map((k) => {
        const w = wantCase.get(k.case_id);
        return [k.case_name, w?.assigned, w?.started, w?.completed, w?.average_score];
      }),
    );
    same('completions by day', byDay, want.completionsByDay);
  }

  /** The participants' progress report and the score report, downloaded as CSV, against the truth. */
  async function checkReports(session: HttpSession, at: Date): Promise<void> {
    const progress = await csvRows(session, `/reports/${setup.projectId}/participants-progress?${seasonQuery}`);
    const seen = new Set<string>();
    for (const row of progress) {
      const record = truth.records.get(row.Email ?? '');
      if (!record) {
        ledger.fail('reports_match', `participants progress: a row for ${row.Email}, who is not a participant`);
        continue;
      }
      seen.add(record.clinician.email);
      const theirs = truth.casesOf(record.clinician);
      const scores = theirs
        .map(({ case: k }) => record.work.get(k.id))
        .filter((w) => truth.completedBy(w, at))
        .map((w) => w!.score!);
      const average = scores.length ? Math.round((10 * scores.reduce((a, b) => a + b, 0)) / scores.length) / 10 : null;
      const got = [Number(row['Cases assigned']), Number(row['Cases completed']), numberOrNull(row['Average score'])];
      const wanted = [theirs.length, scores.length, average];
      if (JSON.stringify(got) !== JSON.stringify(wanted)) {
        ledger.fail(
          'reports_match',
          `participants progress of ${row.Email}: ${JSON.stringify(got)}, truth ${JSON.stringify(wanted)}`,
        );
      }
    }
    if (seen.size !== truth.records.size) {
      ledger.fail('reports_match', `participants progress lists ${seen.size} of ${truth.records.size} participants`);
    }

    const score = await csvRows(session, `/reports/${setup.projectId}/project-score?${seasonQuery}`);
    const caseByName = new Map(setup.cases.map((k) => [k.name, k]));
    for (const row of score) {
      const record = truth.records.get(row.Email ?? '');
      const simulated = caseByName.get(row.Case ?? '');
      if (!record || !simulated) continue;
      const work = record.work.get(simulated.id);
      if (!truth.completedBy(work, at)) continue;
      const wanted = [work!.score, ...missedAndChosen(simulated, work!.answers)];
      const got = [
        numberOrNull(row.Score),
        numberOrNull(row['Necessary choices missed']),
        numberOrNull(row['Unnecessary choices chosen']),
      ];
      if (JSON.stringify(got) !== JSON.stringify(wanted)) {
        ledger.fail(
          'reports_match',
          `score report, ${row.Email} on ${row.Case}: ${JSON.stringify(got)}, truth ${JSON.stringify(wanted)}`,
        );
      }
    }
  }

  async function csvRows(session: HttpSession, path: string): Promise<Record<string, string>[]> {
    const text = await http.call<string>(session, 'GET', path);
    return Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
  }

  return {
    checkRun,
    checkDayComplete,
    checkSummaryReach,
    checkStatistics,
    checkReports,
    counts: () => ({ duplicates, sentAfterCompletion }),
  };
}

const numberOrNull = (cell: string | undefined) => (cell === undefined || cell === '' ? null : Number(cell));

/** Necessary choices left out and unnecessary ones picked, over the case's questions, from the answers given. */
function missedAndChosen(simulated: SeasonSetup['cases'][number], answers: Map<string, string[]>): [number, number] {
  let missed = 0;
  let chosen = 0;
  for (const q of simulated.document.questions) {
    const picked = new Set(answers.get(q.id) ?? []);
    for (const ch of q.choices) {
      if (ch.marked_as === 'NECESSARY' && !picked.has(ch.id)) missed += 1;
      if (ch.marked_as === 'UNNECESSARY' && picked.has(ch.id)) chosen += 1;
    }
  }
  return [missed, chosen];
}
