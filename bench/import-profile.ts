/**
 * Times each phase of a participant import on a fresh PostgreSQL database, calling the
 * import code directly (no HTTP). For finding where an import's time goes:
 * `npx tsx bench/import-profile.ts --pg postgres://… --rows 100000`. It prints when each
 * batch was checked and written, and with `--statements` the time the database took for
 * each kind of statement (by its first words), summed over the import. `--prefix` names
 * the database it makes and drops (`<prefix>_<time>`).
 */
import { createReadStream, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { professions } from '@pss/contract';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client.js';
import { importParticipants } from '../apps/api/src/modules/participants/participant-import.js';
import { seedBenchData } from './seed.js';

const { values } = parseArgs({
  options: {
    pg: { type: 'string' },
    rows: { type: 'string', default: '100000' },
    keep: { type: 'boolean' },
    statements: { type: 'boolean' },
    prefix: { type: 'string', default: 'pss_profile' },
  },
});
const rows = Number(values.rows);
const url = new URL(values.pg ?? 'postgres://root@127.0.0.1:5432/test');
if (!/^[a-z_][a-z0-9_]*$/.test(values.prefix!)) throw new Error('--prefix: a plain lower-case name');
const name = `${values.prefix}_${Date.now()}`;
const admin = new pg.Client({ connectionString: url.toString() });
await admin.connect();
await admin.query(`create database ${name}`);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString() });
try {
  await database.migrate();
  const db = database.db;
  const fixture = await seedBenchData(db, 2, 1);
  const seasonRows = (
    (await db.execute(sql`select s.id, s.name from seasons s where s.project_id = ${fixture.sampleProjectId}`)) as {
      rows: { id: string; name: string }[];
    }
  ).rows;
  const rounds = (
    (await db.execute(
      sql`select r.season_id, r.number, r.start_date::text as start_date, r.end_date::text as end_date from rounds r join seasons s on s.id = r.season_id where s.project_id = ${fixture.sampleProjectId} order by r.number`,
    )) as { rows: { season_id: string; number: number; start_date: string; end_date: string }[] }
  ).rows;
  const season = seasonRows[0]!;
  const seasonRounds = rounds.filter((r) => r.season_id === season.id);
  const file = path.join(os.tmpdir(), `${name}.csv`);
  const lines = ['user_id,salutation,first_name,last_name,email,role,profession,facility,season,rounds,start_date'];
  for (let i = 0; i < rows; i++) {
    const assigned = i % 10 !== 0;
    lines.push(
      `B-${i},Dr.,First${i},Last${i},bench${i}@example.org,USER,${professions[i % 4]},"Clinic ${i % 50}, Floor ${i % 7}",` +
        (assigned ? `${season.name},${(i % 4) + 1}-4,` : ',,'),
    );
  }
  writeFileSync(file, lines.join('\r\n'));
  const client = (await db.execute(sql`select client_id from projects where id = ${fixture.sampleProjectId}`)) as {
    rows: { client_id: string }[];
  };
  const marks: [number, number][] = [];
  const statements = values.statements ? timeStatements() : null;
  const started = performance.now();
  const outcome = await importParticipants({
    openStream: () => createReadStream(file),
    target: {
      projectId: fixture.sampleProjectId,
      clientId: client.rows[0]!.client_id,
      seasons: [
        {
          id: season.id,
          name: season.name,
          startDate: seasonRounds[0]!.start_date,
          endDate: seasonRounds.at(-1)!.end_date,
          rounds: seasonRounds.map((r) => ({ number: r.number, startDate: r.start_date })),
        },
      ],
    },
    database: { db, singleConnection: false },
    reportProgress: async (processed) => {
      marks.push([processed, performance.now() - started]);
    },
  });
  const total = performance.now() - started;
  if (outcome.errors.length) console.log('errors', outcome.errors.slice(0, 3));
  console.log(`${rows} rows in ${(total / 1000).toFixed(2)} s`);
  for (const [rowsDone, ms] of marks)
    console.log(`  ${String(rowsDone).padStart(7)} rows checked and written at ${(ms / 1000).toFixed(2)} s`);
  if (statements) {
    console.log('time in the database by statement (sum over the import; counts in brackets):');
    for (const [kind, { ms, count }] of [...statements].sort((a, b) => b[1].ms - a[1].ms))
      console.log(`  ${(ms / 1000).toFixed(2).padStart(6)} s  (${count})  ${kind}`);
  }
} finally {
  await database.close();
  if (values.keep) console.log(`kept database ${name}`);
  else await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}

/**
 * Sums how long each kind of statement took, from the moment node-postgres was asked to
 * the moment it answered (COPY: until its stream finished), by wrapping `Client.query`.
 */
function timeStatements(): Map<string, { ms: number; count: number }> {
  const sums = new Map<string, { ms: number; count: number }>();
  const add = (text: string, since: number) => {
    const kind = text.replace(/\s+/g, ' ').trim().slice(0, 60);
    const sum = sums.get(kind) ?? { ms: 0, count: 0 };
    sum.ms += performance.now() - since;
    sum.count += 1;
    sums.set(kind, sum);
  };
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const since = performance.now();
    const first = args[0] as { text?: string; on?: (event: string, listener: () => void) => void } | string;
    const result = query.apply(this, args);
    if (typeof first === 'object' && first !== null && typeof first.on === 'function') {
      first.on('finish', () => add(first.text ?? 'copy … from stdin', since));
    } else if (result instanceof Promise) {
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      void result.then(
        () => add(text, since),
        () => add(text, since),
      );
    }
    return result;
  } as typeof pg.Client.prototype.query;
  return sums;
}
