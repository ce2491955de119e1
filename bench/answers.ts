/**
 * The answer-saving benchmark: many participants answering at once, each answer saved as it
 * is given (`POST /cases/{id}/answer`), then every stored answer counted and compared with
 * the last one each participant sent. Nothing may be lost.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.js';
import {
  cases,
  clients,
  diseaseTypes,
  participantAssignments,
  projectDiseaseTypes,
  projectParticipants,
  projectQuestionCategories,
  projects,
  questionCategories,
  rounds,
  seasons,
  users,
} from '../apps/api/src/db/schema/index.js';
import { hashPassword } from '../apps/api/src/lib/passwords.js';
import { contentColumns } from '../apps/api/src/modules/cases/case-content.js';
import { cpuPer, sampleCpu, walPosition } from './process-cpu.js';

export const ANSWER_BENCH_PASSWORD = 'bench-participant';
const QUESTIONS = 10;
const CHOICES = 4;

export interface AnswerBenchFixture {
  emails: string[];
  projectId: string;
}

function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

/** A project with a round running today, one published case of ten questions, and `count` participants. */
export async function seedAnswerBench(db: Db, count: number, tag = ''): Promise<AnswerBenchFixture> {
  const [client] = await db
    .insert(clients)
    .values({ name: `Answer bench ${Date.now()}` })
    .returning();
  const [project] = await db
    .insert(projects)
    .values({ clientId: client!.id, name: 'Answer bench project' })
    .returning();
  await db.execute(sql`insert into disease_types (name) values ('Bench disease') on conflict do nothing`);
  await db.execute(sql`insert into question_categories (name) values ('Bench category') on conflict do nothing`);
  const [disease] = await db
    .select()
    .from(diseaseTypes)
    .where(sql`lower(name) = 'bench disease'`);
  const [category] = await db
    .select()
    .from(questionCategories)
    .where(sql`lower(name) = 'bench category'`);
  await db.insert(projectDiseaseTypes).values({ projectId: project!.id, diseaseTypeId: disease!.id });
  await db.insert(projectQuestionCategories).values({ projectId: project!.id, questionCategoryId: category!.id });
  const [season] = await db
    .insert(seasons)
    .values({ projectId: project!.id, name: 'Bench season', position: 0, startDate: day(-1), endDate: day(30) })
    .returning();
  await db.insert(rounds).values({ seasonId: season!.id, number: 1, startDate: day(-1), endDate: day(30) });
  await db.insert(cases).values({
    ...contentColumns({
      name: 'Bench case',
      disease_type_id: disease!.id,
      patient_name: 'Bench Patient',
      patient_age: 50,
      reason_for_encounter: '<p>Benchmark</p>',
      season_id: season!.id,
      round_number: 1,
      feedback_type: 'PERSONALIZED_FEEDBACK',
      references: '',
      test_results: '',
      explanation: '',
      details_sections: [],
      groupers: [],
      questions: Array.from({ length: QUESTIONS }, (_, q) => ({
        id: randomUUID(),
        grouper_id: null,
        type: 'MULTI_MANY' as const,
        text: `Question ${q + 1}`,
        text_before: '',
        required: true,
        category_id: category!.id,
        choices: Array.from({ length: CHOICES }, (_, c) => ({
          id: randomUUID(),
          text: `Choice ${c + 1}`,
          marked_as: c === 0 ? ('NECESSARY' as const) : ('UNNECESSARY' as const),
        })),
        allow_other: false,
        allow_none_of_below: false,
      })),
    }),
    origin: 'CUSTOM',
    clientId: client!.id,
    projectId: project!.id,
    status: 'PUBLISHED',
  });
  const passwordHash = await hashPassword(ANSWER_BENCH_PASSWORD);
  const people = await db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        email: `answer${tag}${i}@bench.local`,
        passwordHash,
        role: 'USER' as const,
        firstName: `Answer${i}`,
        lastName: 'Bench',
        clientId: client!.id,
      })),
    )
    .returning();
  await db.insert(projectParticipants).values(
    people.map((u) => ({
      projectId: project!.id,
      userId: u.id,
      sortName: `bench ${u.firstName}`.toLowerCase(),
      email: u.email,
      dataStatus: 'READY' as const,
    })),
  );
  await db.insert(participantAssignments).values(
    people.map((u) => ({
      userId: u.id,
      seasonId: season!.id,
      projectId: project!.id,
      firstRound: 1,
      lastRound: 1,
      startDate: day(-1),
    })),
  );
  return { emails: people.map((u) => u.email), projectId: project!.id };
}

interface Participant {
  token: string;
  attemptId: string;
  questions: { id: string; choices: string[] }[];
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** How long after the last answer its CPU is still counted: the sealer runs 1 s after writes. */
const ANSWER_TAIL_MS = 2500;

/**
 * Every participant signs in, opens the case, then all of them at once answer each question
 * `passes` times over (a changed mind each time), and then all submit at once (timed apart:
 * the submit writes the kept counts). Answers the latencies, the throughput, and what was
 * sent last for each question, to check against the database.
 */
export async function runAnswerBench(
  base: string,
  fixture: AnswerBenchFixture,
  passes: number,
  serverPid: number,
  databaseUrl?: string,
) {
  const participants: Participant[] = [];
  for (const email of fixture.emails) {
    const session = await json<{ access_token: string }>(
      await fetch(`${base}/api/auth/login/user`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: ANSWER_BENCH_PASSWORD }),
      }),
    );
    const headers = { authorization: `Bearer ${session.access_token}` };
    const dashboard = await json<{ projects: { cases: { id: string }[] }[] }>(
      await fetch(`${base}/api/dashboard`, { headers }),
    );
    const attemptId = dashboard.projects[0]!.cases[0]!.id;
    const attempt = await json<{ case: { questions: { id: string; choices: { id: string }[] }[] } }>(
      await fetch(`${base}/api/cases/${attemptId}/start`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    participants.push({
      token: session.access_token,
      attemptId,
      questions: attempt.case.questions.map((q) => ({ id: q.id, choices: q.choices.map((c) => c.id) })),
    });
  }

  const latencies: number[] = [];
  const lastSent = new Map<string, string[]>();
  let failures = 0;
  const cpuBefore = sampleCpu(serverPid);
  const walBefore = await walPosition(databaseUrl);
  const started = performance.now();
  await Promise.all(
    participants.map(async (p, index) => {
      for (let pass = 0; pass < passes; pass += 1) {
        for (const question of p.questions) {
          const choiceIds = [question.choices[(pass + index) % question.choices.length]!];
          const t0 = performance.now();
          const response = await fetch(`${base}/api/cases/${p.attemptId}/answer`, {
            method: 'POST',
            headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ question_id: question.id, choice_ids: choiceIds }),
          });
          latencies.push(performance.now() - t0);
          if (response.ok) lastSent.set(`${p.attemptId}:${question.id}`, choiceIds);
          else failures += 1;
          await response.arrayBuffer();
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // The work an answer leaves behind (the audit trail's sealing, 50 ms after writes) is its cost too.
  await new Promise((resolve) => setTimeout(resolve, ANSWER_TAIL_MS));
  const cpu = cpuPer(cpuBefore, sampleCpu(serverPid), latencies.length);
  const walAfter = await walPosition(databaseUrl);
  /** PostgreSQL's write-ahead log written per answer (bytes), with what the answers left to do after. */
  const walBytes = walBefore !== null && walAfter !== null ? Number(walAfter - walBefore) / latencies.length : null;
  // Then every one submits at once: the submit is where the kept counts are written.
  const submitLatencies: number[] = [];
  let submitFailures = 0;
  await Promise.all(
    participants.map(async (p) => {
      const t0 = performance.now();
      const response = await fetch(`${base}/api/cases/${p.attemptId}/submit`, {
        method: 'POST',
        headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      submitLatencies.push(performance.now() - t0);
      if (!response.ok) submitFailures += 1;
      await response.arrayBuffer();
    }),
  );
  latencies.sort((a, b) => a - b);
  submitLatencies.sort((a, b) => a - b);
  const at = (q: number, sorted = latencies) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return {
    participants: participants.length,
    requests: latencies.length,
    failures,
    seconds,
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    /** CPU per answer (ms), the server's and PostgreSQL's, with what the answers left to do after. */
    cpu,
    walBytes,
    /** The submits, all at once after the answers: latencies (ms) and failures. */
    submits: { p50: at(0.5, submitLatencies), p95: at(0.95, submitLatencies), failures: submitFailures },
    lastSent,
  };
}

/** Counts the stored answers and compares each with the last one sent. */
export async function checkStoredAnswers(db: Db, lastSent: Map<string, string[]>) {
  const rows = (await db.execute(
    sql`select user_season_round_case_id as attempt, question_id as question, choice_ids from case_answers`,
  )) as unknown as { rows: { attempt: string; question: string; choice_ids: string[] }[] };
  // Only this run's attempts: another run's fixture may share the database.
  const attempts = new Set([...lastSent.keys()].map((key) => key.split(':')[0]));
  const stored = new Map(
    rows.rows.filter((r) => attempts.has(r.attempt)).map((r) => [`${r.attempt}:${r.question}`, r.choice_ids]),
  );
  let mismatched = 0;
  for (const [key, sent] of lastSent) if (JSON.stringify(stored.get(key)) !== JSON.stringify(sent)) mismatched += 1;
  return { expected: lastSent.size, stored: stored.size, mismatched };
}

/** One line of an answer run's figures and what was found stored. */
export function describeAnswerFigures(
  figures: Omit<Awaited<ReturnType<typeof runAnswerBench>>, 'lastSent'>,
  stored: Awaited<ReturnType<typeof checkStoredAnswers>>,
): string {
  return (
    `${figures.participants} participants at once, ${figures.requests} answers in ` +
    `${figures.seconds.toFixed(1)} s = ${figures.requestsPerSecond} answers/s, p50 ${figures.p50} ms, ` +
    `p95 ${figures.p95} ms, p99 ${figures.p99} ms, ${figures.failures} failed; stored ${stored.stored} of ` +
    `${stored.expected} (one per participant and question), ${stored.mismatched} not the last answer sent` +
    (figures.cpu
      ? `; CPU per answer: server ${figures.cpu.serverMs.toFixed(2)} ms, PostgreSQL ${figures.cpu.databaseMs.toFixed(2)} ms`
      : '') +
    (figures.walBytes !== null ? `; write-ahead log per answer ${Math.round(figures.walBytes)} bytes` : '') +
    `; then ${figures.participants} submits at once: p50 ${figures.submits.p50} ms, p95 ${figures.submits.p95} ms, ` +
    `${figures.submits.failures} failed`
  );
}
