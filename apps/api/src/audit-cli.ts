import { sql } from 'drizzle-orm';
import { rowsOf } from './db/client.js';
import { openCliDatabase } from './db/cli-database.js';
import { verifyAuditChain } from './modules/audit/audit-chain.js';

/**
 * `npm run audit:verify` (in the Docker image: `node dist/audit.js`): walks the audit trail's
 * hash chain from its first event and says whether it holds, or names the first event whose
 * link does not (altered, inserted, or following a removed one). Reads DATABASE_URL, or the
 * embedded database under DATA_DIR as the server does (stop the server first: an embedded
 * database has one process; a running server answers the same at GET /api/audit-events/verify).
 * Changes nothing. Exit status: 0 the chain holds, 1 it is broken, 2 no database to read.
 */
async function main(): Promise<number> {
  const database = await openCliDatabase();
  if (!database) return 2;
  try {
    const [table] = rowsOf<{ name: string | null }>(
      await database.db.execute(sql`select to_regclass('audit_events')::text as name`),
    );
    if (!table?.name) {
      console.error('This database has no audit trail yet: start the app once to bring it up to date.');
      return 2;
    }
    const verdict = await verifyAuditChain(database.db);
    if (verdict.ok) {
      console.log(`The audit trail holds: ${verdict.checked} events checked.`);
      return 0;
    }
    const before = verdict.checked === 1 ? '1 event before it holds' : `${verdict.checked} events before it hold`;
    console.error(`The audit trail is broken at event ${verdict.first_broken_id}: ${before}.`);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
