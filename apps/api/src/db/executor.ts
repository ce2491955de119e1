import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.js';

/*
 * The handles statements run on, apart from `client.ts` (which opens them and passes these on)
 * so that what `client.ts` itself uses — the roles, the migrations' state — reads the database
 * without importing it back: no import cycle in `db/`.
 */

export type Schema = typeof schema;
/** The database handle every repository receives; the same type for PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A handle inside a transaction has the same query surface. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/**
 * Where a repository's statements run: the database, or a transaction a service opened.
 * Repositories are created bound to one (`createCasesRepository(db)`, `createCasesRepository(tx)`);
 * see docs/design/data-and-transactions.md.
 */
export type Executor = Db | Tx;

/** The rows of a raw `execute` result, the same shape on both drivers. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
