import pg from 'pg';

/**
 * Makes a fresh database on the PostgreSQL server at `serverUrl` for one run. Its `drop`
 * removes it afterwards, unless BENCH_KEEP_DATABASE=<name> keeps the seeded database under
 * that name (replacing one of the same name), to look at its plans after a run.
 */
export async function createBenchDatabase(
  serverUrl: string,
): Promise<{ databaseUrl: string; drop: () => Promise<void> }> {
  const name = `pss_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const keep = process.env.BENCH_KEEP_DATABASE;
  if (keep && !/^[a-z_][a-z0-9_]*$/.test(keep)) throw new Error('BENCH_KEEP_DATABASE: a plain lower-case name');
  return {
    databaseUrl: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      if (keep) {
        await c.query(`drop database if exists ${keep} with (force)`);
        await c.query(`alter database ${name} rename to ${keep}`);
      } else {
        await c.query(`drop database if exists ${name} with (force)`);
      }
      await c.end();
    },
  };
}
