import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { completedSeason, syncAttempts } from '../../db/attempt-sync.js';
import type { Executor } from '../../db/client.js';
import { seasons, seasonSummaries, type StoredSummaryFile } from '../../db/schema/index.js';

export type SeasonSummaryRecord = typeof seasonSummaries.$inferSelect;
/** A summary with the name of its season, as every answer shows it. */
export type SeasonSummaryRow = SeasonSummaryRecord & { seasonName: string };

export type SummaryTexts = Pick<SeasonSummaryRecord, 'title' | 'description' | 'greeting' | 'videoUrl'>;
export type SummaryFileKind = 'sheet' | 'video';

/** A video link may be saved only where no video was uploaded (the table's check says the same). */
const linkFits = (videoUrl: string | null) => (videoUrl === null ? undefined : isNull(seasonSummaries.video));

export function createSeasonSummariesRepository(db: Executor) {
  const withSeason = () =>
    db
      .select({ summary: seasonSummaries, seasonName: seasons.name })
      .from(seasonSummaries)
      .innerJoin(seasons, eq(seasons.id, seasonSummaries.seasonId));
  const flatten = (row: { summary: SeasonSummaryRecord; seasonName: string }): SeasonSummaryRow => ({
    ...row.summary,
    seasonName: row.seasonName,
  });
  /** The row as an answer shows it, after a write (its season's name read again). */
  async function reread(id: string | undefined): Promise<SeasonSummaryRow | undefined> {
    if (!id) return undefined;
    const [row] = await withSeason().where(eq(seasonSummaries.id, id));
    return row && flatten(row);
  }

  return {
    /** A project's season by name, regardless of case (names are unique that way). */
    async seasonByName(projectId: string, name: string): Promise<{ id: string; name: string } | undefined> {
      const [row] = await db
        .select({ id: seasons.id, name: seasons.name })
        .from(seasons)
        .where(and(eq(seasons.projectId, projectId), sql`lower(${seasons.name}) = lower(${name})`));
      return row;
    },

    async findById(id: string): Promise<SeasonSummaryRow | undefined> {
      const [row] = await withSeason().where(eq(seasonSummaries.id, id));
      return row && flatten(row);
    },

    async findBySeason(seasonId: string): Promise<SeasonSummaryRow | undefined> {
      const [row] = await withSeason().where(eq(seasonSummaries.seasonId, seasonId));
      return row && flatten(row);
    },

    /**
     * Creates the season's summary (DRAFT) or replaces its texts. Undefined when a link was
     * given to a summary that has an uploaded video (nothing written).
     */
    async save(
      projectId: string,
      seasonId: string,
      texts: SummaryTexts,
      now: Date,
    ): Promise<SeasonSummaryRow | undefined> {
      const [row] = await db
        .insert(seasonSummaries)
        .values({ projectId, seasonId, ...texts, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: seasonSummaries.seasonId,
          set: { ...texts, updatedAt: now },
          setWhere: linkFits(texts.videoUrl),
        })
        .returning({ id: seasonSummaries.id });
      return reread(row?.id);
    },

    /** POSTED keeps the first posting's time while it stays posted; DRAFT clears it. */
    async setStatus(id: string, status: 'DRAFT' | 'POSTED', now: Date): Promise<SeasonSummaryRow> {
      const [row] = await db
        .update(seasonSummaries)
        .set({
          status,
          postedAt:
            status === 'POSTED'
              ? sql`case when ${seasonSummaries.status} = 'POSTED' then ${seasonSummaries.postedAt} else ${now} end`
              : null,
          updatedAt: now,
        })
        .where(eq(seasonSummaries.id, id))
        .returning({ id: seasonSummaries.id });
      return (await reread(row?.id))!;
    },

    /** The summary's files and link, its row locked until the transaction ends (a file is being replaced). */
    async lock(id: string): Promise<Pick<SeasonSummaryRecord, 'sheet' | 'video' | 'videoUrl'> | undefined> {
      const [row] = await db
        .select({ sheet: seasonSummaries.sheet, video: seasonSummaries.video, videoUrl: seasonSummaries.videoUrl })
        .from(seasonSummaries)
        .where(eq(seasonSummaries.id, id))
        .for('update');
      return row;
    },

    /**
     * Sets (or clears) the sheet or the uploaded video. An uploaded video only where no link
     * is saved: undefined when refused (nothing written).
     */
    async setFile(
      id: string,
      kind: SummaryFileKind,
      file: StoredSummaryFile | null,
      now: Date,
    ): Promise<SeasonSummaryRow | undefined> {
      const [row] = await db
        .update(seasonSummaries)
        .set(kind === 'sheet' ? { sheet: file, updatedAt: now } : { video: file, updatedAt: now })
        .where(and(eq(seasonSummaries.id, id), kind === 'video' && file ? isNull(seasonSummaries.videoUrl) : undefined))
        .returning({ id: seasonSummaries.id });
      return reread(row?.id);
    },

    /** Makes the participant's UserSeasonRoundCases first, so a case published since counts. */
    syncParticipant: (userId: string) => syncAttempts(db, { userId }),

    /**
     * The posted summaries of the seasons this participant completed: they have cases in the
     * season and every one of them is COMPLETE. One summary when `summaryId` is given.
     */
    async postedFor(userId: string, summaryId?: string): Promise<SeasonSummaryRow[]> {
      const rows = await db
        .select({ summary: seasonSummaries, seasonName: seasons.name })
        .from(seasonSummaries)
        .innerJoin(seasons, eq(seasons.id, seasonSummaries.seasonId))
        .where(
          and(
            eq(seasonSummaries.status, 'POSTED'),
            summaryId ? eq(seasonSummaries.id, summaryId) : undefined,
            completedSeason(sql`${userId}::uuid`, sql`${seasonSummaries.seasonId}`),
          ),
        )
        .orderBy(asc(seasons.position));
      return rows.map(flatten);
    },
  };
}

export type SeasonSummariesRepository = ReturnType<typeof createSeasonSummariesRepository>;
