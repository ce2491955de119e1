import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { ActiveSeason, SeasonInput } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import { clients, projects, rounds, seasons } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged } from '../../lib/list-query.js';

/** A season an edit would remove (whole, or some of its rounds) that holds participants' work. */
export interface SeasonWork {
  id: string;
  name: string;
  /** The round numbers with work the edit would remove. */
  rounds: number[];
}
export interface SeasonWithRounds {
  id: string;
  name: string;
  rounds: { id: string; number: number; startDate: string; endDate: string }[];
}

/** A season runs from its first round's start to its last round's end. */
function seasonSpan(season: SeasonInput): { startDate: string; endDate: string } {
  const starts = season.rounds.map((r) => r.start_date).sort();
  const ends = season.rounds.map((r) => r.end_date).sort();
  return { startDate: starts[0]!, endDate: ends.at(-1)! };
}

/** A project's seasons and their rounds; the seasons running today across projects. */
export function createProjectSeasonsRepository(db: Executor) {
  return {
    async seasonsOf(projectId: string): Promise<SeasonWithRounds[]> {
      const rows = await db
        .select({ season: seasons, round: rounds })
        .from(seasons)
        .leftJoin(rounds, eq(rounds.seasonId, seasons.id))
        .where(eq(seasons.projectId, projectId))
        .orderBy(asc(seasons.position), asc(rounds.number));
      const bySeason = new Map<string, SeasonWithRounds>();
      for (const { season, round } of rows) {
        const entry = bySeason.get(season.id) ?? { id: season.id, name: season.name, rounds: [] };
        if (round)
          entry.rounds.push({ id: round.id, number: round.number, startDate: round.startDate, endDate: round.endDate });
        bySeason.set(season.id, entry);
      }
      return [...bySeason.values()];
    },

    /**
     * The seasons and rounds this save would remove that hold participants' work: an
     * assignment covering the round, or an attempt (with its answers and score) in it. Reads
     * after locking the project's seasons, so nothing is assigned or attempted in them until
     * the save commits (those writes take a key-share lock on the season).
     */
    async workInRemoved(projectId: string, input: SeasonInput[]): Promise<SeasonWork[]> {
      const existing = rowsOf<{ id: string; name: string }>(
        await db.execute(
          sql`select id, name from seasons where project_id = ${projectId} order by position for update`,
        ),
      );
      const blocked: SeasonWork[] = [];
      for (const season of existing) {
        const sent = input.find((s) => s.id === season.id);
        const kept = sql`array[${sql.join(
          (sent?.rounds ?? []).map((r) => sql`${r.number}`),
          sql`, `,
        )}]::smallint[]`;
        const work = sql`(exists (select 1 from participant_assignments pa
              where pa.season_id = ${season.id} and r.number between pa.first_round and pa.last_round)
            or exists (select 1 from user_season_round_cases u
              where u.season_id = ${season.id} and u.round_number = r.number))`;
        const [found] = rowsOf<{ rounds: number[]; any_work: boolean }>(
          await db.execute(sql`
            select
              coalesce((select array_agg(r.number order by r.number) from rounds r
                where r.season_id = ${season.id} and not (r.number = any(${kept})) and ${work}), '{}') as rounds,
              (exists (select 1 from participant_assignments pa where pa.season_id = ${season.id})
                or exists (select 1 from user_season_round_cases u where u.season_id = ${season.id})) as any_work`),
        );
        const rounds = (found?.rounds ?? []).map(Number);
        // A season left out goes whole: any assignment or attempt in it holds it.
        if (rounds.length || (!sent && found?.any_work)) blocked.push({ id: season.id, name: season.name, rounds });
      }
      return blocked;
    },

    /**
     * Makes the project's seasons exactly these: kept (by id), changed, added or removed; a
     * kept season's rounds are updated in place by number (their ids stay), others added or
     * removed. Callers check `workInRemoved` first, in the same transaction.
     */
    async replace(projectId: string, input: SeasonInput[]): Promise<void> {
      const existing = await db.select({ id: seasons.id }).from(seasons).where(eq(seasons.projectId, projectId));
      const keep = new Set(input.map((s) => s.id).filter((id): id is string => Boolean(id)));
      const removed = existing.map((s) => s.id).filter((id) => !keep.has(id));
      if (removed.length) await db.delete(seasons).where(inArray(seasons.id, removed));
      // Names are unique per project: park kept seasons under temporary names first, so two
      // seasons may swap names in one save.
      for (const season of input) {
        if (season.id) {
          await db
            .update(seasons)
            .set({ name: `~renaming~${season.id}` })
            .where(and(eq(seasons.id, season.id), eq(seasons.projectId, projectId)));
        }
      }
      for (const [position, season] of input.entries()) {
        let seasonId = season.id;
        const span = seasonSpan(season);
        if (seasonId && existing.some((s) => s.id === seasonId)) {
          await db
            .update(seasons)
            .set({ name: season.name, position, ...span })
            .where(eq(seasons.id, seasonId));
        } else {
          const [created] = await db
            .insert(seasons)
            .values({ projectId, name: season.name, position, ...span })
            .returning({ id: seasons.id });
          seasonId = created!.id;
        }
        await db.delete(rounds).where(
          and(
            eq(rounds.seasonId, seasonId),
            notInArray(
              rounds.number,
              season.rounds.map((r) => r.number),
            ),
          ),
        );
        await db
          .insert(rounds)
          .values(
            season.rounds.map((r) => ({
              seasonId: seasonId!,
              number: r.number,
              startDate: r.start_date,
              endDate: r.end_date,
            })),
          )
          .onConflictDoUpdate({
            target: [rounds.seasonId, rounds.number],
            set: { startDate: sql`excluded.start_date`, endDate: sql`excluded.end_date` },
          });
      }
    },

    /** Removes all of a project's seasons (their rounds go with them); for deleting the project. */
    async removeAll(projectId: string): Promise<void> {
      await db.delete(seasons).where(eq(seasons.projectId, projectId));
    },

    /** Seasons running on `today` (from the first round's start to the last round's end). */
    activeSeasons(
      today: string,
      query: { page: number; limit: number; sort: { field: string; direction: 'ASC' | 'DESC' }[] },
      scope: { clientId: string | null },
    ) {
      const where = and(
        sql`${seasons.startDate} <= ${today}`,
        sql`${seasons.endDate} >= ${today}`,
        scope.clientId ? eq(projects.clientId, scope.clientId) : undefined,
      );
      const sortable = {
        client_name: sql`lower(${clients.name})`,
        project_name: sql`lower(${projects.name})`,
        season_name: sql`lower(${seasons.name})`,
        start_date: seasons.startDate,
        end_date: seasons.endDate,
      };
      // Qualified by hand: inside a subquery drizzle writes columns without their table.
      const currentRound = sql<
        number | null
      >`(select r.number from ${rounds} r where r.season_id = "seasons"."id" and r.start_date <= ${today} and r.end_date >= ${today} limit 1)`;
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select({
              client_id: clients.id,
              client_name: clients.name,
              project_id: projects.id,
              project_name: projects.name,
              season_id: seasons.id,
              season_name: seasons.name,
              start_date: seasons.startDate,
              end_date: seasons.endDate,
              current_round: currentRound,
            })
            .from(seasons)
            .innerJoin(projects, eq(projects.id, seasons.projectId))
            .innerJoin(clients, eq(clients.id, projects.clientId))
            .where(where)
            .orderBy(
              ...orderByTerms(
                query.sort as { field: keyof typeof sortable; direction: 'ASC' | 'DESC' }[],
                sortable,
                seasons.id,
              ),
            )
            .limit(limit)
            .offset(offset)
            .then((rows) =>
              rows.map((r): ActiveSeason => ({
                ...r,
                start_date: r.start_date ?? '',
                end_date: r.end_date ?? '',
                current_round: r.current_round === null ? null : Number(r.current_round),
              })),
            ),
        async () =>
          (
            await db
              .select({ n: countAll })
              .from(seasons)
              .innerJoin(projects, eq(projects.id, seasons.projectId))
              .where(where)
          )[0]?.n ?? 0,
      );
    },
  };
}
export type ProjectSeasonsRepository = ReturnType<typeof createProjectSeasonsRepository>;
