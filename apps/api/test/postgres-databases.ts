import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Names and URLs of the PostgreSQL databases the API tests make and drop. Two checkouts
 * testing on one server at once (git worktrees) each set TEST_TEMPLATE_DATABASE, or the
 * second run's setup would drop the first one's template mid-run.
 */
export const TEMPLATE_DATABASE = /^[a-z_][a-z0-9_]{0,62}$/.test(process.env.TEST_TEMPLATE_DATABASE ?? '')
  ? process.env.TEST_TEMPLATE_DATABASE!
  : 'pss_test_template';

export function adminUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A new, empty database on the server at `baseUrl` (not copied from the migrated template:
 * the processes a test starts migrate it themselves), and the way to drop it.
 */
export async function createEmptyDatabase(
  baseUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  return { url: adminUrl(baseUrl, name), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
