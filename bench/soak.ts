/**
 * The soak: `npm run bench -- --scenarios soak --minutes 60 [--pg postgres://…]`. Two API
 * processes (the built server) on one fresh PostgreSQL database and one real SMTP server
 * take a steady mix for the given minutes (bench/soak-traffic.ts). Every minute each
 * process's RSS and heap are read from its /metrics; at the end every write the servers
 * acknowledged is looked for in the database. The goal (issue #30): memory flat (the last
 * ten minutes within 10 % of the second ten), p95 steady, no 5xx, nothing lost. Figures go
 * to bench/results/soak-*.json, the memory plot to bench/results/soak-memory-*.svg, and a
 * Markdown summary to the console for docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client.js';
import { createEmptyDatabase } from '../apps/api/test/postgres-databases.js';
import { startSmtpPeer } from '../apps/api/test/smtp-peer.js';
import { seedSoak, SOAK_PASSWORD, type SoakFixture } from './soak-seed.js';
import { memoryPlot, memoryVerdict, soakMarkdown, type MemorySample } from './soak-report.js';
import { createSoakTraffic, type Acknowledged } from './soak-traffic.js';

const root = path.resolve(import.meta.dirname, '..');
const METRICS_TOKEN = 'soak-metrics-token-long-enough';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(root, 'apps/api/dist/main.js')], {
    env: {
      ...process.env,
      // The soak signs its staff in with a password alone.
      MFA_REQUIRED_ROLES: '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitForReady(base: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${base}/api/health/ready`).catch(() => null);
    if (ready?.status === 200) return;
    await pause(200);
  }
  throw new Error(`${base} did not become ready`);
}

async function memoryOf(base: string): Promise<{ rssMb: number; heapMb: number } | null> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).catch(
    () => null,
  );
  if (!response?.ok) return null;
  const text = await response.text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return { rssMb: value('process_resident_memory_bytes'), heapMb: value('nodejs_heap_size_used_bytes') };
}

/** The Initial Launch Email of the project, which the manual sends send. */
async function sendEmailOf(base: string, fixture: Omit<SoakFixture, 'sendEmailId'>): Promise<string> {
  const login = await fetch(`${base}/api/auth/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: fixture.adminEmail, password: SOAK_PASSWORD }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const list = await fetch(`${base}/api/projects/${fixture.projectId}/emails-list`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const items = ((await list.json()) as { items: { id: string; type: string }[] }).items;
  return items.find((e) => e.type === 'initial')!.id;
}

/** Every acknowledged write, looked for in the database: how many are missing of each kind. */
async function lostWrites(databaseUrl: string, acknowledged: Acknowledged, delivered: Set<string>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const answers = await client.query<{ key: string; choice_ids: string[] }>(
      `select user_season_round_case_id || ':' || question_id as key, choice_ids from case_answers`,
    );
    const stored = new Map(answers.rows.map((r) => [r.key, JSON.stringify(r.choice_ids)]));
    let lostAnswers = 0;
    for (const [key, choices] of acknowledged.answers) if (stored.get(key) !== JSON.stringify(choices)) lostAnswers++;
    const complete = await client.query<{ id: string }>(
      `select id from user_season_round_cases where status = 'COMPLETE'`,
    );
    const completed = new Set(complete.rows.map((r) => r.id));
    const lostSubmits = [...acknowledged.submitted].filter((id) => !completed.has(id)).length;
    let lostImports = 0;
    for (const job of acknowledged.imports) {
      const row = await client.query<{ state: string; processed_rows: number }>(
        'select state, processed_rows from import_jobs where id = $1',
        [job.jobId],
      );
      job.state = row.rows[0]?.state;
      if (row.rows[0]?.state !== 'COMPLETE' || row.rows[0].processed_rows !== job.rows) lostImports++;
    }
    const recipients = await client.query<{ id: string; email: string }>(
      'select id, email from users where id = any($1::uuid[])',
      [acknowledged.sends.flatMap((s) => s.recipients)],
    );
    const lostEmails = recipients.rows.filter((r) => !delivered.has(r.email)).length;
    return { answers: lostAnswers, submits: lostSubmits, imports: lostImports, emails: lostEmails };
  } finally {
    await client.end();
  }
}

export async function runSoak(options: { serverUrl: string; minutes: number; participants: number }): Promise<void> {
  const { serverUrl, minutes } = options;
  const database = await createEmptyDatabase(serverUrl, 'pss_soak');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-soak-'));
  const smtp = await startSmtpPeer();
  const servers: ChildProcess[] = [];
  try {
    console.log(`Soak: seeding ${options.participants} participants on PostgreSQL…`);
    const seeding = await openDatabase({ databaseUrl: database.url });
    await seeding.migrate();
    const seeded = await seedSoak(seeding.db, options.participants);
    await seeding.close();

    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'soak-session-secret-long-enough-for-hs256',
      METRICS_TOKEN,
      SMTP_URL: smtp.url,
      LOGIN_MAX_FAILURES: '100000',
    };
    const ports = [3320, 3321];
    for (const port of ports) servers.push(startServer(port, env));
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);
    await Promise.all(bases.map(waitForReady));
    const fixture: SoakFixture = { ...seeded, sendEmailId: await sendEmailOf(bases[0]!, seeded) };

    console.log(`Soak: ${minutes} minutes on two processes (${bases.join(', ')})…`);
    const startedAt = Date.now();
    const traffic = createSoakTraffic({ bases, fixture, endsAt: startedAt + minutes * 60_000 });
    const samples: MemorySample[] = [];
    const sampleAll = async (minute: number) => {
      for (const [i, base] of bases.entries()) {
        const memory = await memoryOf(base);
        if (memory) samples.push({ minute, process: `process ${i + 1}`, ...memory });
      }
    };
    await sampleAll(0);
    const sampler = setInterval(() => {
      const minute = Math.round((Date.now() - startedAt) / 60_000);
      void sampleAll(minute).then(() => {
        const last = samples.filter((s) => s.minute === minute).map((s) => `${s.rssMb.toFixed(0)} MB`);
        console.log(`  minute ${minute}: ${traffic.calls.length} calls, RSS ${last.join(' / ')}`);
      });
    }, 60_000);
    await traffic.run({ participantLanes: 3, importRows: 2000 });
    clearInterval(sampler);
    await sampleAll(minutes);

    // The last import and sends finish; then every acknowledged write is looked for.
    for (let i = 0; i < 120; i++) {
      const busy = new pg.Client({ connectionString: database.url });
      await busy.connect();
      const open = await busy.query<{ n: string }>(
        `select (select count(*) from import_jobs where state in ('NOT_STARTED', 'RUNNING'))
              + (select count(*) from email_outbox where status in ('QUEUED', 'SENDING')) as n`,
      );
      await busy.end();
      if (Number(open.rows[0]!.n) === 0) break;
      await pause(1000);
    }
    const delivered = new Set(smtp.received.flatMap((m) => m.to));
    const lost = await lostWrites(database.url, traffic.acknowledged, delivered);

    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const results = path.join(root, 'bench/results');
    mkdirSync(results, { recursive: true });
    const figures = {
      minutes,
      calls: traffic.calls.length,
      status5xx: traffic.calls.filter((c) => c.status >= 500).length,
      noAnswer: traffic.calls.filter((c) => c.status === 0).length,
      lost,
      memory: memoryVerdict(samples, minutes),
      samples,
      imports: traffic.acknowledged.imports,
      emailsReceived: smtp.received.length,
    };
    writeFileSync(path.join(results, `soak-${stamp}.json`), JSON.stringify({ ...figures, calls: traffic.calls }));
    writeFileSync(
      path.join(results, `soak-memory-${stamp}.svg`),
      memoryPlot(samples, `Soak: memory of two API processes over ${minutes} minutes`),
    );
    console.log(`\n${soakMarkdown({ minutes, calls: traffic.calls, samples, lost })}\n`);
    console.log(`Soak figures in bench/results/soak-${stamp}.json, plot in bench/results/soak-memory-${stamp}.svg`);
  } finally {
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(
      servers.map((s) => new Promise((resolve) => (s.exitCode !== null ? resolve(null) : s.once('exit', resolve)))),
    );
    await smtp.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
