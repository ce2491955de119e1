import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPglite } from '../db/client.js';

/**
 * Backups of a DATA_DIR: the embedded database (PGlite, in DATA_DIR/pglite) and every other
 * file there (uploads under files/, site pages, the persisted session secret), as one
 * .tar.gz. The server must be stopped: PGlite is one process's database, and a copy taken
 * while it writes would not be consistent. The database goes in as PGlite's own dump of its
 * data directory (`dumpDataDir`), which it loads back as it was. With PostgreSQL
 * (DATABASE_URL), the database is backed up with pg_dump instead (see the README) and the
 * archive holds the files only.
 *
 * The archive is written and read with the system's `tar` (GNU tar or bsdtar), present in
 * the Docker image and on every development machine.
 */

const MANIFEST = 'pss-backup.json';
const DATABASE_DUMP = 'pglite-datadir.tar';
const FILES = 'data';

export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** Whether the archive holds the embedded database, or only the files (PostgreSQL). */
  database: 'pglite' | 'none';
}

function tar(args: string[]): void {
  const result = spawnSync('tar', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`tar ${args[0]} failed: ${result.stderr.toString().trim()}`);
}

/** Writes the archive of `dataDir` to `outFile`; answers what it holds. */
export async function backupDataDir(options: {
  dataDir: string;
  outFile: string;
  /** True when the server runs on PostgreSQL: the database is not in DATA_DIR. */
  externalDatabase: boolean;
}): Promise<BackupManifest> {
  const dataDir = path.resolve(options.dataDir);
  if (!existsSync(dataDir)) throw new Error(`DATA_DIR ${dataDir} does not exist.`);
  const stage = mkdtempSync(path.join(os.tmpdir(), 'pss-backup-'));
  try {
    const pgliteDir = path.join(dataDir, 'pglite');
    const hasPglite = !options.externalDatabase && existsSync(pgliteDir);
    if (hasPglite) {
      const pglite = createPglite(pgliteDir);
      try {
        // A dump asked for before the database has opened can wait forever: open it first.
        await pglite.waitReady;
        const dump = await pglite.dumpDataDir('none');
        writeFileSync(path.join(stage, DATABASE_DUMP), Buffer.from(await dump.arrayBuffer()));
      } finally {
        await pglite.close();
      }
    }
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      database: hasPglite ? 'pglite' : 'none',
    };
    writeFileSync(path.join(stage, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    mkdirSync(path.dirname(path.resolve(options.outFile)), { recursive: true });
    // The files go under data/ in the archive, without the database directory (in the dump).
    tar([
      '-czf',
      path.resolve(options.outFile),
      '-C',
      stage,
      ...readdirSync(stage),
      '--exclude=./pglite',
      `--transform=s,^\\.,${FILES},`,
      '-C',
      dataDir,
      '.',
    ]);
    return manifest;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Puts an archive back into `dataDir`. An existing DATA_DIR is kept beside it (renamed
 * `<DATA_DIR>.before-restore-<time>`) rather than overwritten, and only with `replace`:
 * a restore never silently destroys the data it replaces.
 */
export async function restoreDataDir(options: {
  archive: string;
  dataDir: string;
  replace?: boolean;
}): Promise<{ manifest: BackupManifest; keptAs: string | null }> {
  const dataDir = path.resolve(options.dataDir);
  const stage = mkdtempSync(path.join(os.tmpdir(), 'pss-restore-'));
  try {
    tar(['-xzf', path.resolve(options.archive), '-C', stage]);
    const manifestFile = path.join(stage, MANIFEST);
    if (!existsSync(manifestFile)) throw new Error(`${options.archive} is not a backup made by npm run backup.`);
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
    if (manifest.format !== 1) throw new Error(`Unknown backup format ${String(manifest.format)}.`);

    let keptAs: string | null = null;
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      if (!options.replace) {
        throw new Error(`DATA_DIR ${dataDir} is not empty. Pass --replace to keep it aside and restore in its place.`);
      }
      keptAs = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(dataDir, keptAs);
    }
    const files = path.join(stage, FILES);
    if (existsSync(files)) renameSync(files, dataDir);
    else mkdirSync(dataDir, { recursive: true });
    if (manifest.database === 'pglite') {
      const dump = readFileSync(path.join(stage, DATABASE_DUMP));
      // PGlite unpacks the dump into its new data directory on open.
      const pglite = createPglite(path.join(dataDir, 'pglite'), { loadDataDir: new Blob([dump]) });
      await pglite.waitReady;
      await pglite.close();
    }
    return { manifest, keptAs };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
