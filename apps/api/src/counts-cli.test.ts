import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from './db/client.js';
import { clients, participantAssignments, projectParticipants, projects, seasons, users } from './db/schema/index.js';

const run = promisify(execFile);
const cli = path.join(import.meta.dirname, 'counts-cli.ts');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-counts-cli-'));
const counts = (command: string, env: Record<string, string> = { DATA_DIR: dataDir }) =>
  run(process.execPath, ['--import', 'tsx', cli, command], { env: { ...process.env, DATABASE_URL: '', ...env } });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run counts', () => {
  it('says when there is no database, and refuses an unknown command', async () => {
    await expect(counts('verify', { DATA_DIR: path.join(dataDir, 'none') })).rejects.toMatchObject({ code: 2 });
    await expect(counts('recount')).rejects.toMatchObject({ code: 2 });
  });

  it(
    'verifies the kept counts, names a season whose rows drifted, and rebuilds them',
    { timeout: 120_000 },
    async () => {
      // An embedded database with one member in one season, closed before the command opens it.
      const database = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
      await database.migrate();
      const { db } = database;
      const [client] = await db.insert(clients).values({ name: 'Counted Health' }).returning();
      const [project] = await db.insert(projects).values({ clientId: client!.id, name: 'Counted' }).returning();
      const [season] = await db
        .insert(seasons)
        .values({ projectId: project!.id, name: 'Spring', position: 0 })
        .returning();
      const [user] = await db
        .insert(users)
        .values({ email: 'counted@example.test', role: 'USER', firstName: 'C', lastName: 'D' })
        .returning();
      await db
        .insert(projectParticipants)
        .values({ projectId: project!.id, userId: user!.id, sortName: 'd c', email: user!.email });
      await db.insert(participantAssignments).values({
        userId: user!.id,
        seasonId: season!.id,
        projectId: project!.id,
        firstRound: 1,
        lastRound: 4,
        startDate: '2026-03-01',
      });
      await database.close();

      expect((await counts('verify')).stdout).toContain('The kept counts of all 1 seasons equal a recomputation.');

      // A kept row changed behind the triggers' back.
      const again = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
      await again.db.execute(sql`update kept_member_groups set members = members + 5`);
      await again.close();
      const drifted = await counts('verify').catch((error: { code: number; stderr: string }) => error);
      expect(drifted).toMatchObject({ code: 1 });
      expect((drifted as { stderr: string }).stderr).toContain('Counted / Spring');

      expect((await counts('rebuild')).stdout).toContain('Recomputed the kept counts of 1 seasons.');
      const rebuilt = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
      const groups = rowsOf<{ members: number }>(await rebuilt.db.execute(sql`select members from kept_member_groups`));
      await rebuilt.close();
      expect(groups).toEqual([{ members: 1 }]);
    },
  );
});
