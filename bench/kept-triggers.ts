import pg from 'pg';

/**
 * Switches the kept counts' triggers (migration 0041: every trigger whose name begins with
 * `kept_`) off, or back on as they ship (ENABLE ALWAYS), on a connection: in a transaction,
 * a rollback undoes it (the import's COPY floor counts nothing). The bench's "before" of a
 * call uses `setKeptTriggers` instead, for the whole database.
 */
export async function switchKeptTriggers(client: pg.ClientBase, on: boolean): Promise<void> {
  const { rows } = await client.query<{ table_name: string; trigger_name: string }>(
    `select c.relname as table_name, t.tgname as trigger_name
     from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where not t.tgisinternal and t.tgname like 'kept\\_%'`,
  );
  if (!rows.length) throw new Error('no kept_ triggers: is the database migrated?');
  for (const { table_name, trigger_name } of rows) {
    await client.query(
      `alter table ${client.escapeIdentifier(table_name)} ${on ? 'enable always' : 'disable'} ` +
        `trigger ${client.escapeIdentifier(trigger_name)}`,
    );
  }
}

/**
 * The kept counts' triggers off or on for the whole database, so that a bench measures a call
 * before and after the counts in one run. With them off, the kept rows of whatever is written
 * meanwhile go stale: `rebuildKeptCountsOfProject` recounts them after.
 */
export async function setKeptTriggers(databaseUrl: string, on: boolean): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await switchKeptTriggers(client, on);
  } finally {
    await client.end();
  }
}

/** Recounts the kept rows of every season of a project (`kept_rebuild`, migration 0041). */
export async function rebuildKeptCountsOfProject(databaseUrl: string, projectId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`select kept_rebuild(id) from seasons where project_id = $1`, [projectId]);
  } finally {
    await client.end();
  }
}
