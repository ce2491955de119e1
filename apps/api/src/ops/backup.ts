import { spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fchmodSync,
  mkdirSync,
  mkdtempSync,
  openSync,
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
 * file there (uploads under files/, site pages), as one .tar.gz, readable by its owner only
 * (0600, whatever the umask): it holds every user's data. The persisted session secret
 * (`.session-secret`) stays out unless asked for (`includeSecret`): whoever holds it can sign
 * access tokens and dashboard links, so an archive with it is a key to the platform. The server must be stopped: PGlite is one process's database, and a copy taken
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
/** The persisted session secret's file in DATA_DIR (config.ts). */
const SESSION_SECRET_FILE = '.session-secret';

export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** Whether the archive holds the embedded database, or only the files (PostgreSQL). */
  database: 'pglite' | 'none';
  /** Whether DATA_DIR's session secret is in the archive (absent in archives made before it could be left out). */
  sessionSecret?: boolean;
}

/** Runs tar; `stdout` is a file descriptor its standard output goes to (an archive written with `-f -`). */
function tar(args: string[], stdout?: number): void {
  const result = spawnSync('tar', args, { stdio: ['ignore', stdout ?? 'ignore', 'pipe'] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`tar ${args[0]} failed: ${result.stderr.toString().trim()}`);
}

/** Writes the archive of `dataDir` to `outFile`; answers what it holds. */
export async function backupDataDir(options: {
  dataDir: string;
  outFile: string;
  /** True when the server runs on PostgreSQL: the database is not in DATA_DIR. */
  externalDatabase: boolean;
  /** Puts DATA_DIR's session secret in the archive too (`--include-secret`). */
  includeSecret?: boolean;
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
    const includeSecret = Boolean(options.includeSecret) && existsSync(path.join(dataDir, SESSION_SECRET_FILE));
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      database: hasPglite ? 'pglite' : 'none',
      sessionSecret: includeSecret,
    };
    writeFileSync(path.join(stage, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    mkdirSync(path.dirname(path.resolve(options.outFile)), { recursive: true });
    // The archive is made 0600 before a byte is written into it (fchmod: the umask does not
    // apply, and a file already there loses its wider mode), and tar writes into it through
    // its standard output, so no moment exists when others may read it.
    const out = openSync(path.resolve(options.outFile), 'w', 0o600);
    try {
      fchmodSync(out, 0o600);
      // The files go under data/ in the archive, without the database directory (in the dump).
      tar(
        [
          '-czf',
          '-',
          '-C',
          stage,
          ...readdirSync(stage),
          '--exclude=./pglite',
          ...(includeSecret ? [] : [`--exclude=./${SESSION_SECRET_FILE}`]),
          `--transform=s,^\\.,${FILES},`,
          '-C',
          dataDir,
          '.',
        ],
        out,
      );
    } catch (error) {
      rmSync(path.resolve(options.outFile), { force: true });
      throw error;
    } finally {
      closeSync(out);
    }
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
    // An archive without the secret, restored in place of a DATA_DIR that had one, keeps that
    // one: the access tokens and dashboard links it signed go on working.
    const secret = path.join(dataDir, SESSION_SECRET_FILE);
    const replacedSecret = keptAs ? path.join(keptAs, SESSION_SECRET_FILE) : null;
    if (replacedSecret && !existsSync(secret) && existsSync(replacedSecret)) copyFileSync(replacedSecret, secret);
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
