import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { clients, users } from '../db/schema/index.js';
import { openTestDatabase } from '../../test/test-app.js';
import { verifyPassword } from '../lib/passwords.js';
import { keepDemoSignIns, runFirstStart } from './first-start.js';

const opened: { drop(): Promise<void> }[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.drop();
});

async function freshDb() {
  const handle = await openTestDatabase();
  opened.push(handle);
  return handle.database.db;
}

describe('first start', () => {
  it('runs once when several processes start at the same moment (one superadmin, or one set of demo data)', async () => {
    const db = await freshDb();
    const superadmin = { email: 'owner@example.test', password: 'first-password' };
    const results = await Promise.all([1, 2, 3].map(() => runFirstStart(db, { superadmin })));
    expect(results.map((r) => r.kind).sort()).toEqual(['nothing-to-do', 'nothing-to-do', 'superadmin-created']);
    const demoDb = await freshDb();
    const demo = await Promise.all([1, 2].map(() => runFirstStart(demoDb, { superadmin: undefined })));
    expect(demo.map((r) => r.kind).sort()).toEqual(['demo-created', 'nothing-to-do']);
  });

  it('creates the configured superadmin once and never overwrites its password', async () => {
    const db = await freshDb();
    const superadmin = { email: 'Owner@Example.test', password: 'first-password' };
    expect(await runFirstStart(db, { superadmin: { ...superadmin, email: superadmin.email.toLowerCase() } })).toEqual({
      kind: 'superadmin-created',
      email: 'owner@example.test',
    });
    const again = await runFirstStart(db, { superadmin: { email: 'owner@example.test', password: 'changed' } });
    expect(again.kind).toBe('nothing-to-do');
    const rows = await db.select().from(users);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.role).toBe('SUPERADMIN');
    expect(await verifyPassword(rows[0]!.passwordHash!, 'first-password')).toBe(true);
  });

  it('fills an empty database with demo sign-ins and content, once', async () => {
    const db = await freshDb();
    const result = await runFirstStart(db, { superadmin: undefined });
    expect(result.kind).toBe('demo-created');
    if (result.kind !== 'demo-created') return;
    expect(result.signIns.map((s) => s.role)).toEqual(['superadmin', 'admin']);
    for (const signIn of result.signIns) {
      const [row] = (await db.select().from(users)).filter((u) => u.email === signIn.email);
      expect(await verifyPassword(row!.passwordHash!, signIn.password)).toBe(true);
    }
    // Kept in DATA_DIR for the server's user alone (0600: passwords), made anew over a file left there.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-first-start-'));
    try {
      writeFileSync(path.join(dataDir, 'demo-sign-ins.txt'), 'an old demo\n', { mode: 0o644 });
      const lines = result.signIns.map((s) => `${s.label}: ${s.email} / ${s.password}`);
      const file = keepDemoSignIns(path.join(dataDir, 'not-made-yet'), lines);
      expect(file).toBe(path.join(dataDir, 'not-made-yet', 'demo-sign-ins.txt'));
      expect(readFileSync(file, 'utf8')).toBe(lines.join('\n') + '\n');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const again = keepDemoSignIns(dataDir, lines);
      expect(readFileSync(again, 'utf8')).toBe(lines.join('\n') + '\n');
      expect(statSync(again).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }

    const before = await Promise.all([db.select({ n: count() }).from(users), db.select({ n: count() }).from(clients)]);
    expect((await runFirstStart(db, { superadmin: undefined })).kind).toBe('nothing-to-do');
    const after = await Promise.all([db.select({ n: count() }).from(users), db.select({ n: count() }).from(clients)]);
    expect(after).toEqual(before);
  });

  it('creates no demo data when a superadmin is configured', async () => {
    const db = await freshDb();
    await runFirstStart(db, { superadmin: { email: 'owner@example.test', password: 'first-password' } });
    const [row] = await db.select({ n: count() }).from(clients);
    expect(row!.n).toBe(0);
  });
});
