import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createPglite, openDatabase } from '../src/db/client.js';
import { migrationsApplied, latestMigrationTime } from '../src/db/migration-state.js';
import { migrationsFolder } from '../src/db/client.js';
import { clients } from '../src/db/schema/index.js';
import { backupDataDir, restoreDataDir } from '../src/ops/backup.js';

// A DATA_DIR as the server leaves it (embedded database, uploads, site pages, the session
// secret) backed up, lost, and restored: the data is found again; the archive is its
// owner's alone and holds the secret only when asked to. Embedded PGlite only.
const apiRoot = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'pss-backup-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A migrated embedded database in `dataDir` (from the test run's migrated snapshot: migrating on disk is slow). */
async function dataDirWithAClient(dataDir: string, name: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const pglite = createPglite(path.join(dataDir, 'pglite'), {
    loadDataDir: new Blob([readFileSync(inject('pgliteSnapshotFile'))]),
  });
  await pglite.waitReady;
  const database = await openDatabase({ pglite });
  await database.db.insert(clients).values({ name });
  await database.close();
  mkdirSync(path.join(dataDir, 'files', 'resources'), { recursive: true });
  writeFileSync(path.join(dataDir, 'files', 'resources', 'scan.bin'), Buffer.from([1, 2, 3, 250]));
  mkdirSync(path.join(dataDir, 'pages'), { recursive: true });
  writeFileSync(path.join(dataDir, 'pages', 'terms.html'), '<p>Terms</p>');
  writeFileSync(path.join(dataDir, '.session-secret'), 'kept-secret');
}

async function clientNames(dataDir: string): Promise<string[]> {
  const database = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
  try {
    expect(await migrationsApplied(database.db, latestMigrationTime(migrationsFolder))).toBe(true);
    return (await database.db.select({ name: clients.name }).from(clients)).map((c) => c.name);
  } finally {
    await database.close();
  }
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('backup and restore of DATA_DIR', () => {
  it('restores the embedded database and the files of a backup into an empty DATA_DIR', async () => {
    const dataDir = path.join(work, 'data');
    await dataDirWithAClient(dataDir, 'Backed-up Health');
    const archive = path.join(work, 'backup.tar.gz');
    expect(await backupDataDir({ dataDir, outFile: archive, externalDatabase: false })).toMatchObject({
      database: 'pglite',
    });

    rmSync(dataDir, { recursive: true, force: true });
    const restored = await restoreDataDir({ archive, dataDir });
    expect(restored.keptAs).toBeNull();
    expect(await clientNames(dataDir)).toEqual(['Backed-up Health']);
    expect([...readFileSync(path.join(dataDir, 'files', 'resources', 'scan.bin'))]).toEqual([1, 2, 3, 250]);
    expect(readFileSync(path.join(dataDir, 'pages', 'terms.html'), 'utf8')).toBe('<p>Terms</p>');
    // Not asked for, the secret stays out: the restored server makes a new one.
    expect(existsSync(path.join(dataDir, '.session-secret'))).toBe(false);
  }, 120_000);

  it('writes an archive only its owner reads, whatever the umask, and puts the secret in only with --include-secret', async () => {
    const dataDir = path.join(work, 'mode-data');
    await dataDirWithAClient(dataDir, 'Private Health');
    // The command as an operator runs it, under the loosest umask (files 0666 unless set).
    const backup = (archive: string, ...args: string[]) =>
      spawnSync(
        'sh',
        [
          '-c',
          'umask 000 && exec "$@"',
          'sh',
          process.execPath,
          '--import',
          'tsx',
          'src/backup-cli.ts',
          'backup',
          archive,
          ...args,
        ],
        {
          cwd: apiRoot,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
          encoding: 'utf8',
        },
      );
    const members = (archive: string) => spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' }).stdout.split('\n');

    const plain = path.join(work, 'plain.tar.gz');
    // A file already there, readable by all, is overwritten as the owner's alone.
    writeFileSync(plain, 'old', { mode: 0o644 });
    const made = backup(plain);
    expect(made.status).toBe(0);
    expect(made.stdout).toContain('left out');
    expect(statSync(plain).mode & 0o777).toBe(0o600);
    expect(members(plain)).toContain('data/pages/terms.html');
    expect(members(plain).filter((m) => m.includes('session-secret'))).toEqual([]);

    const withSecret = path.join(work, 'with-secret.tar.gz');
    expect(backup(withSecret, '--include-secret').status).toBe(0);
    expect(statSync(withSecret).mode & 0o777).toBe(0o600);
    expect(members(withSecret)).toContain('data/.session-secret');
    const restored = path.join(work, 'restored-with-secret');
    await restoreDataDir({ archive: withSecret, dataDir: restored });
    expect(readFileSync(path.join(restored, '.session-secret'), 'utf8')).toBe('kept-secret');

    // A misspelt flag is refused rather than ignored.
    const misspelt = backup(path.join(work, 'misspelt.tar.gz'), '--include-secrets');
    expect(misspelt.status).toBe(2);
    expect(existsSync(path.join(work, 'misspelt.tar.gz'))).toBe(false);
  }, 180_000);

  it('refuses to restore over data, and with --replace keeps that data aside (through the npm command)', async () => {
    const dataDir = path.join(work, 'cli-data');
    await dataDirWithAClient(dataDir, 'First');
    const archive = path.join(work, 'cli.tar.gz');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/backup-cli.ts', ...args], {
        cwd: apiRoot,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    expect(run('backup', archive).status).toBe(0);

    // Changed after the backup: the restore brings back the backed-up state.
    const database = await openDatabase({ pgliteDataDir: path.join(dataDir, 'pglite') });
    await database.db.update(clients).set({ name: 'Renamed' }).where(eq(clients.name, 'First'));
    await database.close();

    const refused = run('restore', archive);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('is not empty');
    expect(await clientNames(dataDir)).toEqual(['Renamed']);

    expect(run('restore', archive, '--replace').status).toBe(0);
    expect(await clientNames(dataDir)).toEqual(['First']);
    // The archive had no secret: the one of the DATA_DIR it replaced stays in use.
    expect(readFileSync(path.join(dataDir, '.session-secret'), 'utf8')).toBe('kept-secret');
    const kept = readdirSync(work).filter((name) => name.startsWith('cli-data.before-restore-'));
    expect(kept).toHaveLength(1);
    expect(existsSync(path.join(work, kept[0]!, 'pglite'))).toBe(true);
  }, 180_000);
});
