import path from 'node:path';
import { backupDataDir, restoreDataDir } from './ops/backup.js';

/**
 * `npm run backup [-- <file.tar.gz>] [--include-secret]` and
 * `npm run restore -- <file.tar.gz> [--replace]` (in the Docker image:
 * `node dist/backup.js backup|restore …`). DATA_DIR and DATABASE_URL
 * are read as the server reads them. Stop the server first.
 */
const usage = 'usage: backup [<file.tar.gz>] [--include-secret] | restore <file.tar.gz> [--replace]';

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const positional = rest.filter((a) => !a.startsWith('--'));
  // A misspelt flag must not pass unnoticed: `--include-secrets` would leave the secret out.
  const flags = { backup: ['--include-secret'], restore: ['--replace'] }[command ?? ''] ?? [];
  const unknown = rest.filter((a) => a.startsWith('--') && !flags.includes(a));
  if (unknown.length > 0) {
    console.error(`Unknown option ${unknown.join(', ')}. ${usage}`);
    process.exit(2);
  }
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const outFile = positional[0] ?? `pss-backup-${stamp}.tar.gz`;
    const externalDatabase = Boolean(process.env.DATABASE_URL);
    const includeSecret = rest.includes('--include-secret');
    const manifest = await backupDataDir({ dataDir, outFile, externalDatabase, includeSecret });
    console.log(`Backed up ${dataDir} to ${path.resolve(outFile)} (readable by its owner only)`);
    console.log(
      manifest.sessionSecret
        ? 'It holds the session secret: whoever reads it can sign in as anyone. Keep it as you keep the secret.'
        : includeSecret
          ? 'DATA_DIR holds no .session-secret to put in (with SESSION_SECRET set, keep that apart).'
          : 'The session secret was left out (--include-secret puts it in).',
    );
    if (manifest.database === 'none') {
      console.log(
        externalDatabase
          ? 'The database is PostgreSQL (DATABASE_URL): back it up with pg_dump (see README, "Backups").'
          : 'No embedded database was found: the archive holds the files only.',
      );
    }
    return;
  }
  if (command === 'restore' && positional[0]) {
    const { manifest, keptAs } = await restoreDataDir({
      archive: positional[0],
      dataDir,
      replace: rest.includes('--replace'),
    });
    console.log(`Restored ${positional[0]} (made ${manifest.createdAt}) into ${dataDir}`);
    if (keptAs) console.log(`The data directory it replaced was kept as ${keptAs}`);
    return;
  }
  console.error(usage);
  process.exit(2);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
