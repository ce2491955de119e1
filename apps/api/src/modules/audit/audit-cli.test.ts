import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client.js';
import { auditEvents } from '../../db/schema/index.js';
import { appendAuditEvents, sealAuditChain } from './audit-chain.js';
import { chainExportLines } from './audit-chain-export.js';
import { createCheckpointBook } from './audit-checkpoints.js';
import { systemClock } from '../../lib/clock.js';

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

describe('npm run audit:verify -- --export FILE --checkpoints FILE', () => {
  it('checks an export of the chain offline against the checkpoints, with the key alone', async () => {
    const dataDir = path.join(work, 'export');
    const database = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
    await database.migrate();
    const actor = { id: null, email: null, role: 'SYSTEM', clientId: null };
    for (const action of ['scheduler.send', 'imports.run', 'resources.process']) {
      await database.db.transaction((tx) => appendAuditEvents(tx, [{ actor, action }]));
    }
    await sealAuditChain(database.db, KEY);
    const book = createCheckpointBook({
      dataDir,
      key: KEY,
      log: { info: () => undefined, error: () => undefined },
      clock: systemClock,
    });
    expect(await book.record(database.db)).toMatchObject({ place: 3 });
    let exported = '';
    for await (const piece of chainExportLines(database.db, systemClock.now())) exported += piece;
    await database.close();
    const file = path.join(work, 'chain.jsonl');
    writeFileSync(file, exported);
    // No database is read: DATA_DIR names none.
    const away = path.join(work, 'elsewhere');

    const holds = verify(away, '--export', file, '--checkpoints', book.file);
    expect(holds.stdout, holds.stderr).toContain('The audit trail holds: 3 events checked.');
    expect(holds.status).toBe(0);

    const lines = exported.trim().split('\n');
    writeFileSync(
      file,
      [...lines.slice(0, 2), lines[2]!.replace('imports.run', 'imports.cancel'), lines[3]].join('\n'),
    );
    const altered = verify(away, '--export', file, '--checkpoints', book.file);
    expect(altered.stderr).toMatch(/ALTERED [0-9a-f-]{36}: the event or its link was changed/);
    expect(altered.status).toBe(1);

    writeFileSync(file, lines.slice(0, 3).join('\n'));
    const cut = verify(away, '--export', file, '--checkpoints', book.file);
    expect(cut.stderr).toContain('TAIL_MISSING');
    expect(cut.stderr).toContain('the chain ends at place 2');
    expect(cut.status).toBe(1);

    const noKey = spawnSync(process.execPath, ['--import', 'tsx', 'src/audit-cli.ts', '--export', file], {
      cwd: apiRoot,
      env: { ...process.env, DATA_DIR: away, AUDIT_SIGNING_KEY: '' },
      encoding: 'utf8',
    });
    expect(noKey.stderr).toContain('No signing key');
    expect(noKey.status).toBe(2);
  }, 120_000);
});
