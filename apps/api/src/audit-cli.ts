import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { SIGNING_KEY_FILE } from './config-audit.js';
import { rowsOf } from './db/client.js';
import { openCliDatabase } from './db/cli-database.js';
import type { ChainVerdict } from './modules/audit/audit-chain-walk.js';
import { verifyChainExport } from './modules/audit/audit-chain-export.js';
import { CHECKPOINTS_FILE, readCheckpointFile } from './modules/audit/audit-checkpoints.js';
import { verifyAuditChain } from './modules/audit/audit-verify.js';

/**
 * `npm run audit:verify` (in the Docker image: `node dist/audit.js`): checks the audit trail and
 * names every problem it finds (see `audit-chain-walk.ts`), with the signing key
 * (AUDIT_SIGNING_KEY, or the key the app keeps in DATA_DIR) and the checkpoints (DATA_DIR's file,
 * or `--checkpoints FILE`).
 *   - without `--export`: the database, DATABASE_URL or the embedded one under DATA_DIR (stop the
 *     server first: an embedded database has one process; a running server answers the same at
 *     GET /api/audit-events/verify);
 *   - `--export FILE`: an export of the chain (GET /api/audit-events/chain), offline, with no
 *     database at all.
 * Changes nothing. Exit status: 0 the trail holds, 1 it does not, 2 nothing to check.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { export: { type: 'string' }, checkpoints: { type: 'string' } },
  });
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const key = signingKey(dataDir);
  if (!key) {
    console.error(
      `No signing key: set AUDIT_SIGNING_KEY, or DATA_DIR to the app's data folder (it keeps ${SIGNING_KEY_FILE}).`,
    );
    return 2;
  }
  const checkpointsFile = values.checkpoints ?? path.join(dataDir, CHECKPOINTS_FILE);
  if (values.checkpoints && !existsSync(values.checkpoints)) {
    console.error(`No checkpoints file at ${values.checkpoints}.`);
    return 2;
  }
  const checkpoints = readCheckpointFile(checkpointsFile, key);

  if (values.export) {
    if (!existsSync(values.export)) {
      console.error(`No export at ${values.export}.`);
      return 2;
    }
    try {
      return report(verifyChainExport(readFileSync(values.export, 'utf8').split('\n'), key, checkpoints));
    } catch (error) {
      console.error(`The export cannot be read: ${(error as Error).message}`);
      return 2;
    }
  }

  const database = await openCliDatabase();
  if (!database) return 2;
  try {
    const [table] = rowsOf<{ name: string | null }>(
      await database.db.execute(sql`select to_regclass('audit_chain')::text as name`),
    );
    if (!table?.name) {
      console.error('This database has no audit trail yet: start the app once to bring it up to date.');
      return 2;
    }
    return report(await verifyAuditChain(database.db, { key, checkpoints }));
  } finally {
    await database.close();
  }
}

function signingKey(dataDir: string): string | null {
  if (process.env.AUDIT_SIGNING_KEY) return process.env.AUDIT_SIGNING_KEY;
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

function report(verdict: ChainVerdict): number {
  if (verdict.ok) {
    console.log(`The audit trail holds: ${verdict.checked} events checked.`);
    return 0;
  }
  const before = verdict.checked === 1 ? '1 event before it holds' : `${verdict.checked} events before it hold`;
  const where = verdict.first_broken_id ? `at event ${verdict.first_broken_id}` : 'at its end';
  console.error(`The audit trail is broken ${where}: ${before}.`);
  for (const problem of verdict.problems) {
    console.error(`  ${problem.kind}${problem.id ? ` ${problem.id}` : ''}: ${problem.detail}`);
  }
  return 1;
}

process.exitCode = await main();
