import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client.js';
import { auditEvents } from '../../db/schema/index.js';
import { appendAuditEvents, sealAuditChain } from './audit-chain.js';

/** `npm run audit:verify` on an embedded database, as an operator runs it with the server stopped. */
const apiRoot = path.resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(path.join(os.tmpdir(), 'pss-audit-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The key the app would have sealed with (AUDIT_SIGNING_KEY). */
const KEY = 'a-test-signing-key-long-enough-for-hmac-sha256';

const verify = (dataDir: string, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/audit-cli.ts', ...args], {
    cwd: apiRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', AUDIT_SIGNING_KEY: KEY },
    encoding: 'utf8',
  });

describe('npm run audit:verify', () => {
  it('says the chain holds, names the first broken event, and exits 0, 1 or 2', async () => {
    const dataDir = path.join(work, 'data');
    const database = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
    await database.migrate();
    const actor = { id: null, email: null, role: 'SYSTEM', clientId: null };
    await database.db.transaction((tx) =>
      appendAuditEvents(tx, [
        { actor, action: 'scheduler.send' },
        { actor, action: 'imports.run' },
      ]),
    );
    await sealAuditChain(database.db, KEY);
    const rows = await database.db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
    await database.close();

    const holds = verify(dataDir);
    expect(holds.stdout, holds.stderr).toContain('The audit trail holds: 2 events checked.');
    expect(holds.status).toBe(0);

    const altered = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
    await altered.db.execute(sql`alter table audit_events disable trigger user`);
    await altered.db.execute(sql`update audit_events set action = 'imports.cancel' where seq = ${rows[1]!.seq}`);
    await altered.close();
    const broken = verify(dataDir);
    expect(broken.stderr).toContain(`broken at event ${rows[1]!.id}: 1 event before it holds.`);
    expect(broken.status).toBe(1);

    const nothing = verify(path.join(work, 'no-such-data'));
    expect(nothing.stderr).toContain('No database');
    expect(nothing.status).toBe(2);
  }, 120_000);
});
