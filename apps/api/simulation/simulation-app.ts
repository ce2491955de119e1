import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { buildApp, type App } from '../src/app.js';
import { runFirstStart } from '../src/bootstrap/first-start.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { fixedClock } from '../src/lib/clock.js';

/** The time zone the simulated project's schedule runs in: Chicago's clocks change in March. */
export const SIMULATION_TIME_ZONE = 'America/Chicago';

/** The operator's sign-in: a superadmin made at first start, as on a new installation. */
export const OPERATOR = { email: 'operator@simulation.example', password: 'simulation-operator-7' };

/**
 * The simulation's mail provider's webhook credentials (Postmark's: HTTP basic auth), set in
 * the app's configuration as an administrator sets them for the real provider.
 */
export const POSTMARK_WEBHOOK = { user: 'simulation-postmark', password: 'simulation-postmark-webhook-7' };

/** A message the simulation's mail server took, with the virtual moment it arrived. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  at: Date;
  /** The Message-ID header as sent (the app's `<outbox id@host>`). */
  messageId: string;
  /** The SMTP envelope sender (the app's per-email return path, `bounces+<outbox id>@…`). */
  envelopeFrom: string;
}

/**
 * The whole app as production runs it, on a database of its own, with its clock in the
 * simulation's hands and its mail going to a real SMTP server of the simulation's own: the
 * app listens on 127.0.0.1 and the simulated people reach it over HTTP.
 */
export async function startSimulationApp(options: { pgUrl?: string; start: string }) {
  const clock = fixedClock(options.start);
  const mail = await startMailServer(() => clock.now());
  const store = await freshDatabase(options.pgUrl);
  const dataDir = path.join(os.tmpdir(), `pss-simulation-${randomBytes(5).toString('hex')}`);
  const config = loadConfig({
    NODE_ENV: 'development',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(os.tmpdir(), 'pss-simulation-no-web-app'),
    LOG_LEVEL: 'silent',
    SMTP_URL: mail.url,
    SCHEDULE_TIME_ZONE: SIMULATION_TIME_ZONE,
    // The operator reads the figures right after the clinicians change them.
    STATISTICS_CACHE_SECONDS: '0',
    MFA_REQUIRED_ROLES: '',
    // Every clinician signs in from this one address, many within a minute of the simulated clock.
    ANONYMOUS_CALLS_PER_MINUTE: '1000000',
    ANONYMOUS_CALLS_PER_MINUTE_TOTAL: '1000000',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    // The mail provider's bounce webhook, which the simulation calls when an address bounces.
    POSTMARK_WEBHOOK_USER: POSTMARK_WEBHOOK.user,
    POSTMARK_WEBHOOK_PASSWORD: POSTMARK_WEBHOOK.password,
  });
  await store.database.migrate();
  await runFirstStart(store.database.db, { superadmin: OPERATOR });
  const app = await buildApp({ config, database: store.database, clock, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app: app as App,
    clock,
    mail,
    database: store.database,
    kind: store.database.kind,
    baseUrl: `http://127.0.0.1:${port}/api`,
    async close() {
      await app.close();
      await store.drop();
      await mail.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type SimulationApp = Awaited<ReturnType<typeof startSimulationApp>>;

/** PGlite in memory, or a new database on the PostgreSQL server of `pgUrl` (dropped at the end). */
async function freshDatabase(pgUrl: string | undefined): Promise<{ database: Database; drop(): Promise<void> }> {
  if (!pgUrl) {
    const database = await openDatabase({ pgliteDataDir: 'memory://' });
    return { database, drop: () => database.close() };
  }
  const name = `pss_simulation_${randomBytes(5).toString('hex')}`;
  await onServer(pgUrl, `create database ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    database,
    drop: async () => {
      await database.close();
      await onServer(pgUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A real SMTP server on 127.0.0.1 that keeps every message, parsed, stamped with the virtual time. */
async function startMailServer(now: () => Date) {
  const received: ReceivedMail[] = [];
  const parsing: Promise<void>[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const at = now();
      const to = session.envelope.rcptTo.map((r) => r.address);
      const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const parsed = simpleParser(stream).then((message) => {
        for (const address of to)
          received.push({
            to: address,
            subject: message.subject ?? '',
            text: message.text ?? '',
            at,
            messageId: message.messageId ?? '',
            envelopeFrom,
          });
      });
      parsing.push(parsed);
      parsed.then(() => callback(), callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** Takes the messages that arrived since the last call. */
    async take(): Promise<ReceivedMail[]> {
      await Promise.all(parsing.splice(0));
      return received.splice(0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
