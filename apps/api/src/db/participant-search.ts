import { eq, sql, type SQL } from 'drizzle-orm';
import { escapeLike } from './like-patterns.js';
import { rowsOf, type Db, type Tx } from './client.js';
import { participantSearch, projectParticipants, projects } from './schema/index.js';

/*
 * The participant search rows (`participant_search`, see its schema) are a copy of each
 * participation's name and email under a trigram index. Everything that decides what they
 * hold and when they may be trusted is here.
 */

/** What a search matches in a participation: `last first email`, lower-cased (`table`: its name or alias). */
const termsOf = (table: 'pp' | 'project_participants') => sql.raw(`${table}.sort_name || ' ' || ${table}.email`);

/**
 * The participations of a project whose name or email contains `search`. Through the
 * trigram index when the project's search rows are up to date; otherwise by reading the
 * participations themselves (slower, same answer).
 */
export function participantSearchCondition(projectId: string, search: string, indexed: boolean): SQL {
  const pattern = `%${escapeLike(search.toLowerCase())}%`;
  if (!indexed) return sql`(${termsOf('project_participants')}) ilike ${pattern}`;
  return sql`${projectParticipants.userId} in (select s.user_id from ${participantSearch} s
    where s.project_id = ${projectId} and s.terms ilike ${pattern})`;
}

/** Whether a project's search rows are up to date (a missing project has none to trust). */
export async function isParticipantSearchIndexed(db: Db, projectId: string): Promise<boolean> {
  const [row] = await db
    .select({ stale: projects.participantSearchStale })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row ? !row.stale : false;
}

/** Marks a project's search rows stale; in the transaction that adds its participants. */
export async function markParticipantSearchStale(tx: Pick<Db, 'execute'>, projectId: string): Promise<void> {
  await tx.execute(sql`update projects set participant_search_stale = true where id = ${projectId}`);
}

/** Rewrites a user's search rows in every project, in the transaction that renames them. */
export async function updateParticipantSearchOfUser(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`
    update participant_search s set terms = ${termsOf('pp')}
    from project_participants pp
    where pp.user_id = ${userId} and s.user_id = pp.user_id and s.project_id = pp.project_id`);
}

/**
 * Brings a project's search rows up to date with its participations, then marks them
 * trusted. The project row is locked first: an import that commits meanwhile marks the
 * project stale again after this commits, so a refresh never trusts rows it did not see.
 *
 * `claim` is for the catch-up every worker tick runs in every process: the lock is then
 * the claim between processes — SKIP LOCKED leaves a project another process is
 * refreshing (or an import is writing, which leaves it stale for the next tick) alone, and
 * a project no longer stale under the lock was refreshed by another process meanwhile — so
 * one process does each refresh. Answers whether this call refreshed.
 */
export async function refreshParticipantSearch(
  db: Db,
  projectId: string,
  options: { claim?: boolean } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (options.claim) {
      const claimed = rowsOf<{ stale: boolean }>(
        await tx.execute(
          sql`select participant_search_stale as stale from projects where id = ${projectId} for update skip locked`,
        ),
      );
      if (!claimed[0]?.stale) return false;
    } else {
      await tx.execute(sql`select 1 from projects where id = ${projectId} for update`);
    }
    // By hash joins: right after an import the planner still believes the project has a
    // participant or two, and its nested loop read every search row of the project again for
    // each of 100,000 participations — minutes, while searches fell back to the slow path.
    // Hashed, a refresh reads the project's rows once each (about what the import wrote).
    // For this statement only: called inside a larger transaction (the demo's, made in one),
    // a SET LOCAL would outlive it — the savepoint's release keeps it — and every later
    // statement, each kept-count trigger included, would plan without nested loops (a demo
    // attempt's insert took a second on PostgreSQL). The setting it had is put back after.
    const [before] = rowsOf<{ was: string }>(await tx.execute(sql`select current_setting('enable_nestloop') as was`));
    await tx.execute(sql`set local enable_nestloop = off`);
    await tx.execute(sql`
      insert into participant_search (project_id, user_id, terms)
      select pp.project_id, pp.user_id, ${termsOf('pp')} from project_participants pp
      where pp.project_id = ${projectId} and not exists (
        select 1 from participant_search s
        where s.project_id = pp.project_id and s.user_id = pp.user_id and s.terms = ${termsOf('pp')})
      on conflict (project_id, user_id) do update set terms = excluded.terms`);
    await tx.execute(sql`select set_config('enable_nestloop', ${before?.was ?? 'on'}, true)`);
    await tx.execute(sql`update projects set participant_search_stale = false where id = ${projectId}`);
    return true;
  });
}

/** Projects whose search rows lag behind (after an import, or a restart in the middle of a refresh). */
export async function projectsWithStaleSearch(db: Db): Promise<string[]> {
  const rows = await db.select({ id: projects.id }).from(projects).where(eq(projects.participantSearchStale, true));
  return rows.map((r) => r.id);
}
