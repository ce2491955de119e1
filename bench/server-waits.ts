import pg from 'pg';

/** Waits until the server answers its health call (a minute at most). */
export async function waitForHealth(base: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('server did not start');
}

/**
 * Waits until the server's outbox has nothing queued or being sent. As it starts, the server
 * runs the email schedule once, which queues the seeded participants' invitations and (with
 * no SMTP_URL) marks them unsent one by one: measured meanwhile, a report would share the
 * CPU and the memory with that sender. On PGlite the harness cannot look, so it waits a while.
 */
export async function waitForQuietOutbox(databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) {
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 300_000;
    for (let settled = 0; settled < 3 && Date.now() < deadline;) {
      const { rows } = await client.query<{ busy: number }>(
        `select count(*)::int as busy from email_outbox where status in ('QUEUED', 'SENDING')`,
      );
      settled = rows[0]!.busy === 0 ? settled + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await client.end();
  }
}

/**
 * Waits until the project's participant search is up to date and no vacuum runs (on
 * PostgreSQL, asked of the database; the embedded one cannot be asked from outside while
 * the server holds it, so there a fixed pause). Answers the seconds waited on PostgreSQL.
 */
export async function waitForImportFollowUp(
  databaseUrl: string | undefined,
  projectId: string,
): Promise<number | null> {
  if (!databaseUrl) {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    return null;
  }
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let searchReadyAt: number | null = null;
    for (;;) {
      const { rows } = await client.query<{ stale: boolean; vacuums: number }>(
        `select (select participant_search_stale from projects where id = $1) as stale,
           (select count(*)::int from pg_stat_activity where query ilike 'vacuum%' and pid <> pg_backend_pid()) as vacuums`,
        [projectId],
      );
      if (!rows[0]!.stale && searchReadyAt === null) searchReadyAt = (performance.now() - started) / 1000;
      if (!rows[0]!.stale && rows[0]!.vacuums === 0) return searchReadyAt;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}
