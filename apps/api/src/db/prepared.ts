import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from './client.js';

/**
 * Runs one hot statement as a named prepared statement where the driver keeps those per
 * connection (node-postgres: parsed and planned once a connection, then only bound and
 * run), and as a plain parameterised query on the embedded database. For statements run
 * many times a second, such as saving an answer; `text` uses `$1`… placeholders.
 */
export async function runPrepared<T>(db: Db, name: string, text: string, values: unknown[]): Promise<T[]> {
  // The database's own client, or in a transaction (a recorded call's) the transaction's connection.
  const handle = db as unknown as { $client?: unknown; session?: { client?: unknown } };
  const client = handle.$client ?? handle.session?.client;
  if (client instanceof pg.Pool || client instanceof pg.Client)
    return (await client.query<T & pg.QueryResultRow>({ name, text, values })).rows;
  return (await (client as PGlite).query<T>(text, values)).rows;
}
