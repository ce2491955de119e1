import { sql } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import type { Db } from '../../db/client.js';
import { MAX_LISTED_ROW_ERRORS } from '../imports/imports.service.js';
import { CopyTextBatch, RowListBatch, type ImportBatch } from './import-batch.js';
import {
  appendRows,
  copyImportText,
  emptyImportTable,
  findExistingUsers,
  importConflicts,
  writeImport,
  type ImportScope,
} from './import-writes.js';
import type { RowProblem } from './participant-rows.js';

type Executor = Pick<Db, 'execute'>;

/**
 * Writes a participant file batch by batch while it is read (PostgreSQL), so that the
 * database writes one batch while the parser checks the next, instead of waiting for the
 * whole file.
 *
 * Every batch runs in the import's one transaction, each in a savepoint of its own: it is
 * loaded into the import table, checked against existing users (the users earlier batches
 * wrote among them: a clinician's later rows find the user their first row made), and
 * written. The import stays all or nothing: the caller rolls the whole transaction back
 * when any row of the file is rejected, a later batch conflicts with an existing user, or
 * a write failed.
 *
 * What a batch finds does not stop the reading, so the job lists what it would have listed
 * had the whole file been read first: once a batch conflicts, later batches are still
 * loaded and checked (until 500 conflicts are listed), but no longer written (a file is only
 * written if no row conflicts). A batch whose statements fail is rolled back
 * to its savepoint, which keeps the transaction usable: the rest of the file is still
 * checked, and the failure is answered only if nothing in the file was rejected.
 */
export function createBatchWriter(input: {
  tx: Executor;
  /** The node-postgres connection under `tx`, for COPY; null loads by INSERT. */
  connection: PoolClient | null;
  scope: ImportScope;
  triggersOff: boolean;
}) {
  const { tx, connection, scope, triggersOff } = input;
  const conflicts: RowProblem[] = [];
  let failure: unknown = null;

  async function load(batch: ImportBatch): Promise<void> {
    await emptyImportTable(tx);
    if (batch instanceof CopyTextBatch && connection) {
      await copyImportText(connection, batch.text());
      await findExistingUsers(tx);
    } else if (batch instanceof RowListBatch) {
      await appendRows(tx, batch.rows);
    } else {
      throw new Error('an import batch of the wrong kind for this connection');
    }
  }

  return {
    /** Loads, checks and (if nothing in the file has conflicted or failed) writes one batch. */
    async write(batch: ImportBatch): Promise<void> {
      if (conflicts.length >= MAX_LISTED_ROW_ERRORS) return; // nothing more would be listed or written
      await tx.execute(sql`savepoint import_batch`);
      try {
        await load(batch);
        conflicts.push(...(await importConflicts(tx, scope.clientId, MAX_LISTED_ROW_ERRORS - conflicts.length)));
        if (conflicts.length === 0 && failure === null) await writeImport(tx, scope, triggersOff);
        await tx.execute(sql`release savepoint import_batch`);
      } catch (error) {
        await tx.execute(sql`rollback to savepoint import_batch`);
        failure ??= error;
      }
    },
    /** The rows (the first 500) that would change existing users as an import may not. */
    conflicts: () => conflicts,
    /** The first batch's failure, if one failed. */
    failure: () => failure,
  };
}
