import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type Database } from './client.js';

/**
 * The database a command-line tool reads: DATABASE_URL, or the embedded database under
 * DATA_DIR as the server keeps it. Null, with the reason said, when there is neither.
 */
export async function openCliDatabase(): Promise<Database | null> {
  const databaseUrl = process.env.DATABASE_URL;
  const pgliteDataDir = path.join(path.resolve(process.env.DATA_DIR ?? './data'), 'pglite');
  if (!databaseUrl && !existsSync(pgliteDataDir)) {
    console.error(
      `No database: set DATABASE_URL, or DATA_DIR to the app's data folder (${pgliteDataDir} does not exist).`,
    );
    return null;
  }
  return openDatabase({ databaseUrl, pgliteDataDir });
}
