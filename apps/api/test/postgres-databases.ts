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

/**
 * The role the API tests' apps serve with on PostgreSQL (issue #46): it owns nothing and holds
 * only what `grantServingRole` gives it after the template's migration, as in production with
 * DATABASE_OWNER_URL. The run's own user (a superuser here) stands for the schema's owner.
 */
export const SERVING_ROLE = 'pss_test_serving';

/** Makes the serving role once per server (two runs at once may both try). */
export async function ensureServingRole(admin: pg.ClientBase): Promise<void> {
  try {
    await admin.query(`create role ${SERVING_ROLE} login`);
  } catch (error) {
    // 42710: it exists; 23505: another run made it in the same moment.
    if (!['42710', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
  }
}

/** `database` on the server at `baseUrl`, as the serving role. */
export function servingUrl(baseUrl: string, database: string): string {
  const url = new URL(adminUrl(baseUrl, database));
  url.username = SERVING_ROLE;
  url.password = '';
  return url.toString();
}
