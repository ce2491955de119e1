/**
 * The floor of a participant import: the same rows the bench's file holds, loaded by plain
 * `COPY … FROM STDIN` straight into the tables the import writes (users, assignments,
 * participations), in one transaction that is then rolled back (the database is left as
 * the import made it). Nothing is checked, looked up or sorted: what loading the rows
 * alone costs on this database, to read the import's time against.
 *
 * Measured twice: with the foreign-key triggers as PostgreSQL runs them, and with them off
 * for the transaction, as the import runs where it may (db/bulk-writes.ts). The kept
 * counts' triggers are off in both: the import keeps its counts, the floor only loads.
 */
import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { professions } from '@pss/contract';
import { switchKeptTriggers } from './kept-triggers.js';

const CHUNK = 10_000;

/** Time-ordered ids in the layout of UUID version 7 (the import's new users have such ids). */
function orderedIds(count: number): string[] {
  const ms = Date.now().toString(16).padStart(12, '0');
  return Array.from({ length: count }, (_, i) => {
    const seq = i.toString(16).padStart(18, '0');
    const hex = `${ms}7${seq.slice(0, 3)}8${seq.slice(3)}`;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
}

export interface CopyFloor {
  /** Seconds with the foreign-key triggers on. */
  triggersOn: number;
  /** Seconds with them off, as the import writes. */
  triggersOff: number;
}

async function copy(client: pg.Client, statement: string, lines: (i: number) => string | null, count: number) {
  const stream = client.query(copyFrom(statement));
  const done = once(stream, 'finish');
  for (let start = 0; start < count; start += CHUNK) {
    let text = '';
    for (let i = start; i < Math.min(count, start + CHUNK); i += 1) text += lines(i) ?? '';
    if (!stream.write(text)) await once(stream, 'drain');
  }
  stream.end();
  await done;
}

/** Loads `count` rows shaped as the bench's file (bench/run.ts) into the project, times it, rolls it back. */
export async function measureCopyFloor(databaseUrl: string, projectId: string, count: number): Promise<CopyFloor> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: facts } = await client.query<{ client_id: string; season_id: string; starts: string[] }>(
      `select p.client_id, s.id as season_id,
         array(select r.start_date::text from rounds r where r.season_id = s.id order by r.number) as starts
       from projects p join seasons s on s.project_id = p.id where p.id = $1 limit 1`,
      [projectId],
    );
    const { client_id: clientId, season_id: seasonId, starts } = facts[0]!;
    const run = async (triggersOff: boolean) => {
      // Ids made beforehand, time-ordered as the import's are.
      const ids = orderedIds(count);
      await client.query('begin');
      try {
        if (triggersOff) await client.query('set local session_replication_role = replica');
        // The kept counts' triggers fire even in replica mode (the import's counts are kept
        // with it); the floor loads rows and nothing else, so they are off here, rolled back.
        await switchKeptTriggers(client, false);
        const started = performance.now();
        await copy(
          client,
          'copy users (id, email, role, first_name, last_name, client_id, employee_id, salutation, profession, facility) from stdin',
          (i) =>
            `${ids[i]}\tfloor${i}@example.org\tUSER\tFirst${i}\tLast${i}\t${clientId}\tF-${i}\tDr.\t` +
            `${professions[i % 4]}\tClinic ${i % 50}, Floor ${i % 7}\n`,
          count,
        );
        await copy(
          client,
          'copy participant_assignments (user_id, season_id, project_id, first_round, last_round, start_date) from stdin',
          (i) => (i % 10 === 0 ? null : `${ids[i]}\t${seasonId}\t${projectId}\t${(i % 4) + 1}\t4\t${starts[i % 4]}\n`),
          count,
        );
        await copy(
          client,
          'copy project_participants (project_id, user_id, sort_name, email, data_status) from stdin',
          (i) =>
            `${projectId}\t${ids[i]}\tlast${i} first${i}\tfloor${i}@example.org\t${i % 10 === 0 ? 'NOT_READY' : 'READY'}\n`,
          count,
        );
        return (performance.now() - started) / 1000;
      } finally {
        await client.query('rollback');
      }
    };
    return { triggersOn: await run(false), triggersOff: await run(true) };
  } finally {
    await client.end();
  }
}
