/**
 * The emails benchmark (issue #13): one scheduler run over a project of 100,000
 * participants (how long it takes to queue what is due today, how many it queued, and the
 * memory of the process running it), a second run (it must queue nothing: every email is
 * queued exactly once), then the outbox drained through the real mailer to a local SMTP
 * server (emails/s; every message sent must arrive, once).
 *
 * The app runs in a child process (bench/emails-process.ts), as it would in a server, so
 * its memory is its own; the SMTP server runs here, in the harness, and counts what it
 * receives.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { seedAttemptsUncounted } from '../apps/api/src/db/kept-counts.js';
import { sql, type SQL } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import type { Db, Executor } from '../apps/api/src/db/client.js';
import { rowTriggersOff } from '../apps/api/src/db/bulk-writes.js';
import { ensureEmailTemplates } from '../apps/api/src/db/email-templates.js';
import { cases, clients, projects, rounds, seasons } from '../apps/api/src/db/schema/index.js';
import { contentColumns } from '../apps/api/src/modules/cases/case-content.js';
import type { EmailProcessInput, EmailProcessResult } from './emails-process.js';

/** Published cases placed in the running round (round 1). */
const CASES_IN_ROUND = 3;
const BATCH = 5000;

export interface EmailBenchFixture {
  /** The day the schedule is run for (`YYYY-MM-DD`, UTC): the dates below are relative to it. */
  day: string;
  projectId: string;
  seasonId: string;
  participants: number;
  /** What the rules must pick in the project today, counted as the rows were made. */
  expected: { initialProject: number; initialSeason: number; reminder: number; total: number };
}

export interface EmailBenchFigures extends EmailProcessResult {
  participants: number;
  expected: EmailBenchFixture['expected'];
  received: number;
  receivedBytes: number;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** What participant `i` is: their place in the season and their progress in its running round. */
function plan(i: number) {
  // 1% archived: every hundredth, who all fall among those joining in round 2.
  const archived = i % 100 === 99;
  const r = i % 20;
  // 75%: took part since round 1 began two days ago (a reminder day); a seventh finished
  // its three cases, a seventh finished one, a seventh opened them without finishing.
  if (r < 15) {
    const completed = i % 7 === 0 ? CASES_IN_ROUND : i % 7 === 1 ? 1 : 0;
    return { archived, start: -2, firstRound: 1, returning: false, completed, opened: i % 7 <= 2 };
  }
  // 10% start today and 5% started yesterday: the launch email.
  if (r < 17) return { archived, start: 0, firstRound: 1, returning: false, completed: 0, opened: false };
  if (r === 17) return { archived, start: -1, firstRound: 1, returning: false, completed: 0, opened: false };
  // 5% start today and took part in an earlier season: the season's own launch email.
  if (r === 18) return { archived, start: 0, firstRound: 1, returning: true, completed: 0, opened: false };
  // 5% join in round 2: nothing today.
  return { archived, start: 12, firstRound: 2, returning: false, completed: 0, opened: false };
}

type Row = Record<string, string | number | boolean>;

async function insertRows(db: Executor, rows: Row[], statement: (json: string) => SQL): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await db.execute(statement(JSON.stringify(rows.slice(i, i + BATCH))));
}

/**
 * A project whose running season makes most of its `count` participants due for an email
 * on `day`: round 1 of four began two days before (a reminder day) with three published
 * cases, an earlier season is long over; see `plan` for who is who. Rows are written
 * directly (not through the import, which the participants scenario measures).
 */
export async function seedEmailBench(db: Db, count: number, day: string): Promise<EmailBenchFixture> {
  const [client] = await db
    .insert(clients)
    .values({ name: `Email bench ${Date.now()}` })
    .returning();
  const [project] = await db.insert(projects).values({ clientId: client!.id, name: 'Email bench project' }).returning();
  const seasonRows = await db
    .insert(seasons)
    .values([
      {
        projectId: project!.id,
        name: 'Earlier season',
        position: 0,
        startDate: addDays(day, -200),
        endDate: addDays(day, -145),
      },
      {
        projectId: project!.id,
        name: 'Bench season',
        position: 1,
        startDate: addDays(day, -2),
        endDate: addDays(day, 53),
      },
    ])
    .returning();
  const [earlier, season] = seasonRows as [(typeof seasonRows)[0], (typeof seasonRows)[0]];
  await db.insert(rounds).values(
    [earlier, season].flatMap((s) =>
      [1, 2, 3, 4].map((number) => ({
        seasonId: s.id,
        number,
        startDate: addDays(s.startDate!, (number - 1) * 14),
        endDate: addDays(s.startDate!, (number - 1) * 14 + 13),
      })),
    ),
  );
  const caseIds: string[] = [];
  for (const round of [1, 2]) {
    for (let n = 0; n < CASES_IN_ROUND; n++) {
      const [row] = await db
        .insert(cases)
        .values({
          ...contentColumns({
            name: `Email bench case ${round}.${n + 1}`,
            disease_type_id: null,
            patient_name: 'Bench Patient',
            patient_age: 50,
            reason_for_encounter: '<p>Benchmark</p>',
            season_id: season.id,
            round_number: round,
            feedback_type: 'PERSONALIZED_FEEDBACK',
            references: '',
            test_results: '',
            explanation: '',
            details_sections: [],
            groupers: [],
            questions: [],
          }),
          origin: 'CUSTOM',
          clientId: client!.id,
          projectId: project!.id,
          status: 'PUBLISHED',
        })
        .returning({ id: cases.id });
      if (round === 1) caseIds.push(row!.id);
    }
  }
  // Made with the project by the projects module; here, as that would.
  await ensureEmailTemplates(db, project!.id);

  const expected = { initialProject: 0, initialSeason: 0, reminder: 0, total: 0 };
  const people: Row[] = [];
  const participations: Row[] = [];
  const assignments: Row[] = [];
  const work: Row[] = [];
  // Ids in ascending order, so the inserts append to the indexes that begin with them.
  const ids = Array.from({ length: count }, () => randomUUID()).sort();
  for (let i = 0; i < count; i++) {
    const p = plan(i);
    const id = ids[i]!;
    const email = `emails${i}@bench.example.org`;
    people.push({ id, email, first_name: `First${i}`, last_name: `Last${i}`, employee_id: `E-${i}` });
    participations.push({ user_id: id, archived: p.archived, sort_name: `last${i} first${i}`, email });
    const startDate = addDays(season.startDate!, p.start + 2);
    assignments.push({ user_id: id, season_id: season.id, first_round: p.firstRound, start_date: startDate });
    if (p.returning) {
      assignments.push({ user_id: id, season_id: earlier.id, first_round: 1, start_date: earlier.startDate! });
    }
    if (p.opened) {
      caseIds.forEach((caseId, n) =>
        work.push({
          user_id: id,
          case_id: caseId,
          unlocks_on: startDate,
          status: n < p.completed ? 'COMPLETE' : n === p.completed ? 'IN_PROGRESS' : 'NOT_STARTED',
        }),
      );
    }
    if (p.archived) continue;
    if (p.start === 0 || p.start === -1) {
      if (p.returning) expected.initialSeason += 1;
      else expected.initialProject += 1;
    } else if (p.firstRound === 1 && p.completed < CASES_IN_ROUND) {
      expected.reminder += 1;
    }
  }
  expected.total = expected.initialProject + expected.initialSeason + expected.reminder;
  // One JSON document per batch: far quicker to send than thousands of bound parameters.
  // Every reference is known good: the foreign-key triggers are switched off where the
  // role may (as the import does, db/bulk-writes.ts).
  // The attempts are seeded uncounted, then counted once (docs/design/statistics.md, kept counts).
  await seedAttemptsUncounted(db, () =>
    db.transaction(async (tx) => {
      await rowTriggersOff(tx);
      await insertRows(
        tx,
        people,
        (rows) => sql`
      insert into users (id, email, role, first_name, last_name, salutation, client_id, employee_id)
      select r.id, r.email, 'USER', r.first_name, r.last_name, 'Dr.', ${client!.id}::uuid, r.employee_id
      from json_to_recordset(${rows}::json) as r(id uuid, email text, first_name text, last_name text, employee_id text)`,
      );
      await insertRows(
        tx,
        participations,
        (rows) => sql`
      insert into project_participants (project_id, user_id, archived, archived_at, sort_name, email, data_status)
      select ${project!.id}::uuid, r.user_id, r.archived, case when r.archived then now() end, r.sort_name, r.email, 'READY'
      from json_to_recordset(${rows}::json) as r(user_id uuid, archived boolean, sort_name text, email text)`,
      );
      await insertRows(
        tx,
        assignments,
        (rows) => sql`
      insert into participant_assignments (user_id, season_id, project_id, first_round, last_round, start_date)
      select r.user_id, r.season_id, ${project!.id}::uuid, r.first_round, 4, r.start_date
      from json_to_recordset(${rows}::json) as r(user_id uuid, season_id uuid, first_round smallint, start_date date)`,
      );
      await insertRows(
        tx,
        work,
        (rows) => sql`
      insert into user_season_round_cases (user_id, project_id, case_id, season_id, round_number, unlocks_on, status)
      select r.user_id, ${project!.id}::uuid, r.case_id, ${season.id}::uuid, 1, r.unlocks_on, r.status
      from json_to_recordset(${rows}::json) as r(user_id uuid, case_id uuid, unlocks_on date, status text)`,
      );
    }),
  );
  await db
    .update(projects)
    .set({
      activeParticipants: participations.filter((p) => !p.archived).length,
      archivedParticipants: participations.filter((p) => p.archived).length,
      notReadyParticipants: 0,
    })
    .where(sql`id = ${project!.id}`);
  await db.execute(sql`analyze`);
  return { day, projectId: project!.id, seasonId: season.id, participants: count, expected };
}

/** A local SMTP server (no sign-in, no STARTTLS) that counts what it receives. */
async function startSmtpSink() {
  const messageIds = new Set<string>();
  let received = 0;
  let bytes = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        received += 1;
        const id = /^message-id:\s*(\S+)/im.exec(head)?.[1];
        if (id) messageIds.add(id);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    counts: () => ({ received, bytes, distinctMessageIds: messageIds.size }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs the schedule twice and the sender once in a child process on the seeded database
 * (nothing else may have it open: embedded PGlite has one owner at a time), sending at
 * most `send` emails (0: all that were queued) to a local SMTP server. Throws when a
 * figure that must hold does not.
 */
export async function runEmailBench(options: {
  fixture: EmailBenchFixture;
  databaseUrl: string | undefined;
  pgliteDataDir: string;
  dataDir: string;
  send: number;
  onProgress?: (line: string) => void;
}): Promise<EmailBenchFigures> {
  const sink = await startSmtpSink();
  try {
    const child = fork(path.join(import.meta.dirname, 'emails-process.ts'), [], {
      execArgv: [...process.execArgv, '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const result = await new Promise<EmailProcessResult>((resolve, reject) => {
      child.on('message', (message: { progress?: string; result?: EmailProcessResult; error?: string }) => {
        if (message.progress) options.onProgress?.(message.progress);
        if (message.result) resolve(message.result);
        if (message.error) reject(new Error(message.error));
      });
      child.on('exit', (code) => reject(new Error(`the email benchmark process exited (${code})`)));
      const input: EmailProcessInput = {
        databaseUrl: options.databaseUrl,
        pgliteDataDir: options.pgliteDataDir,
        dataDir: options.dataDir,
        smtpUrl: sink.url,
        day: options.fixture.day,
        projectId: options.fixture.projectId,
        send: options.send,
      };
      child.send(input);
    });
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    const counts = sink.counts();
    const figures: EmailBenchFigures = {
      ...result,
      participants: options.fixture.participants,
      expected: options.fixture.expected,
      received: counts.received,
      receivedBytes: counts.bytes,
    };
    const failures: string[] = [];
    const { expected } = options.fixture;
    if (result.first.projectQueued.total !== expected.total)
      failures.push(
        `the first run queued ${result.first.projectQueued.total} in the project, expected ${expected.total}`,
      );
    if (
      result.first.projectQueued.initialProject !== expected.initialProject ||
      result.first.projectQueued.initialSeason !== expected.initialSeason ||
      result.first.projectQueued.reminder !== expected.reminder
    )
      failures.push(
        `queued by kind ${JSON.stringify(result.first.projectQueued)}, expected ${JSON.stringify(expected)}`,
      );
    if (result.second.queued !== 0) failures.push(`the second run queued ${result.second.queued} (must be 0)`);
    if (result.sending.result.sent !== result.sending.target)
      failures.push(
        `sent ${result.sending.result.sent} of ${result.sending.target}: ${JSON.stringify(result.sending.result)}`,
      );
    if (counts.received !== result.sending.result.sent)
      failures.push(`the SMTP server received ${counts.received}, the sender sent ${result.sending.result.sent}`);
    if (counts.distinctMessageIds !== counts.received)
      failures.push(`${counts.received} messages received but ${counts.distinctMessageIds} distinct Message-IDs`);
    if (result.sending.rowsSent !== result.sending.result.sent)
      failures.push(`${result.sending.rowsSent} outbox rows SENT, the sender sent ${result.sending.result.sent}`);
    if (failures.length) throw new Error(`email benchmark: ${failures.join('; ')}`);
    return figures;
  } finally {
    await sink.close();
  }
}
