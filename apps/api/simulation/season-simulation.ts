import { addDays } from '../src/modules/emails/email-rules.js';
import { groundTruth } from './ground-truth.js';
import { invariantLedger, type InvariantName } from './invariants.js';
import { planSeason, type SimulationOptions } from './season-plan.js';
import { seasonChecks } from './season-checks.js';
import { clinicians, type Letter } from './sim-clinicians.js';
import { httpClient } from './sim-http.js';
import { mailProvider } from './sim-mail-provider.js';
import { operator } from './sim-operator.js';
import { startSimulationApp, type ReceivedMail } from './simulation-app.js';
import { suppressionChecks } from './suppression-checks.js';

/**
 * A whole season, day by day, on a fresh app: the schedule and the sender run twice a day
 * (morning and evening, as the worker would between them), the clinicians work in
 * between, and every invariant is checked against the ground truth as the days go.
 */

/** The hours (UTC) of a day's moments; in Chicago all of them fall on the same calendar day. */
const MORNING_RUN = 'T13:00:00Z';
const FIRST_SITTING = 'T15:00:00Z';
const SUMMARY_POSTED = 'T16:00:00Z';
const SECOND_SITTING = 'T20:00:00Z';
const EVENING_RUN = 'T23:00:00Z';
const CHECKS = 'T23:30:00Z';
/** How long after a run the mail provider reports the bounces of its mail. */
const BOUNCE_REPORTED_AFTER_MS = 60_000;

export interface SeasonDay {
  date: string;
  round: number | null;
  emails: Record<string, number>;
  /** Messages that bounced that day (each reported to the app by the mail provider). */
  bounced: number;
  started: number;
  completed: number;
  /** Participation and case completion as the Progress Dashboard shows them at the day's end. */
  participation: number;
  completion: number;
}

export interface SimulationResult {
  participants: number;
  days: number;
  emails_sent: number;
  duplicates: number;
  sent_after_completion: number;
  answers_lost: number;
  /** Addresses on the app's suppression list at the end (the bouncing clinicians'). */
  suppressed: number;
  statistics_match: boolean;
  reports_match: boolean;
  invariants_failed: InvariantName[];
}

export interface SimulationRun {
  result: SimulationResult;
  table: SeasonDay[];
  details: Record<string, { count: number; examples: string[] }>;
  database: string;
  seconds: number;
  /** HTTP calls the simulated people made. */
  calls: number;
}

export async function simulateSeason(
  options: SimulationOptions & { pgUrl?: string; onDay?: (day: SeasonDay) => void },
): Promise<SimulationRun> {
  const started = Date.now();
  const plan = planSeason(options);
  const sim = await startSimulationApp({ pgUrl: options.pgUrl, start: `${plan.firstDay}T12:00:00Z` });
  const at = (day: string, time: string) => {
    sim.clock.set(`${day}${time}`);
    return sim.clock.now();
  };
  try {
    const http = httpClient(sim.baseUrl);
    const staff = operator(sim, http);
    const setup = await staff.setUp(plan);
    const truth = groundTruth(plan, setup.cases);
    const people = clinicians({ plan, http, truth, cases: setup.cases });
    const ledger = invariantLedger();
    const provider = mailProvider({ plan, baseUrl: sim.baseUrl });
    const checks = seasonChecks({ plan, truth, setup, http, ledger, suppressedSince: provider.reportedAt });
    const suppressions = suppressionChecks({ db: sim.database.db, provider, ledger });
    const table: SeasonDay[] = [];
    let emailsSent = 0;
    let summaryPosted = false;

    /**
     * Runs the schedule and the sender, hands the mail to its readers, checks it; a minute
     * later the mail provider reports what bounced (its readers never see it). Answers how
     * many bounced.
     */
    async function scheduleRun(day: string, time: string, tally: Record<string, number>): Promise<number> {
      const now = at(day, time);
      await sim.app.emails.runScheduler();
      await sim.app.emails.drain();
      const mails = await sim.mail.take();
      const letters = mails.map((m) => letterOf(m, day));
      for (const letter of letters) {
        tally[letter.type] = (tally[letter.type] ?? 0) + 1;
        if (!provider.bounces(letter.to)) people.deliver(letter);
      }
      emailsSent += letters.length;
      checks.checkRun(day, now, letters, summaryPosted);
      sim.clock.set(new Date(now.getTime() + BOUNCE_REPORTED_AFTER_MS));
      return provider.report(mails, sim.clock.now());
    }

    for (let day = plan.firstDay; day <= plan.lastDay; day = addDays(day, 1)) {
      const tally: Record<string, number> = {};
      let bounced = await scheduleRun(day, MORNING_RUN, tally);
      await people.firstSitting(day, at(day, FIRST_SITTING));
      if (day === plan.summaryPostedOn) {
        at(day, SUMMARY_POSTED);
        await staff.postSummary(setup.projectId, plan);
        summaryPosted = true;
      }
      await people.secondSitting(day, at(day, SECOND_SITTING));
      bounced += await scheduleRun(day, EVENING_RUN, tally);
      checks.checkDayComplete(day);

      const checkedAt = at(day, CHECKS);
      const session = await staff.signIn();
      await checks.checkStatistics(session, day, checkedAt);
      const roundEnds = plan.rounds.some((r) => r.endDate === day);
      if (roundEnds || day === plan.lastDay) await checks.checkReports(session, checkedAt);
      const figures = truth.figures(day, checkedAt, () => day);
      const counts = people.takeCounts();
      const row: SeasonDay = {
        date: day,
        round: plan.rounds.find((r) => r.startDate <= day && day <= r.endDate)?.number ?? null,
        emails: tally,
        bounced,
        started: counts.started,
        completed: counts.completed,
        participation: figures.total ? figures.participating / figures.total : 0,
        completion: figures.casesUnlocked ? figures.casesCompleted / figures.casesUnlocked : 0,
      };
      table.push(row);
      options.onDay?.(row);
    }
    checks.checkSummaryReach(at(plan.lastDay, CHECKS));
    const suppressed = await suppressions.checkOutbox();
    for (const lost of people.lost) {
      ledger.fail('answers_stored', `${lost.email}, ${lost.caseName}: question ${lost.questionId} read back otherwise`);
    }
    const { duplicates, sentAfterCompletion } = checks.counts();
    return {
      result: {
        participants: plan.clinicians.length,
        days: table.length,
        emails_sent: emailsSent,
        duplicates,
        sent_after_completion: sentAfterCompletion,
        answers_lost: people.lost.length,
        suppressed,
        statistics_match: !ledger.failed('statistics_match'),
        reports_match: !ledger.failed('reports_match'),
        invariants_failed: ledger.names(),
      },
      table,
      details: ledger.details(),
      database: sim.kind,
      seconds: (Date.now() - started) / 1000,
      calls: http.calls(),
    };
  } finally {
    await sim.close();
  }
}

/** A received message as its reader takes it: its type from the subject's tag, its link's token. */
function letterOf(mail: ReceivedMail, day: string): Letter {
  const type = /^\[([a-z_]+)\]/.exec(mail.subject)?.[1] ?? 'untagged';
  const token = /\/participant\/link\/([\w.-]+)/.exec(mail.text)?.[1] ?? null;
  return { to: mail.to.toLowerCase(), type, day, at: mail.at, token };
}
