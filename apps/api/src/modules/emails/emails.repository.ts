import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { emailTypes } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import { emailTemplates, projectParticipants, seasons, users } from '../../db/schema/index.js';

export type EmailTemplateRow = typeof emailTemplates.$inferSelect;

/** The order templates are listed in: the spec's order of types, not the alphabet. */
const typeOrder = sql`array_position(array[${sql.raw(emailTypes.map((type) => `'${type}'`).join(','))}], ${emailTemplates.type})`;

export function createEmailsRepository(db: Executor) {
  return {
    projectEmails(projectId: string): Promise<EmailTemplateRow[]> {
      return db
        .select()
        .from(emailTemplates)
        .where(and(eq(emailTemplates.projectId, projectId), isNull(emailTemplates.seasonId)))
        .orderBy(typeOrder);
    },

    seasonEmails(seasonId: string): Promise<EmailTemplateRow[]> {
      return db.select().from(emailTemplates).where(eq(emailTemplates.seasonId, seasonId)).orderBy(typeOrder);
    },

    async findById(id: string): Promise<EmailTemplateRow | undefined> {
      const [row] = await db.select().from(emailTemplates).where(eq(emailTemplates.id, id));
      return row;
    },

    async update(
      id: string,
      fields: Pick<EmailTemplateRow, 'subject' | 'body' | 'buttonText' | 'dashboardUrlText' | 'sendMode'>,
      now: Date,
    ): Promise<EmailTemplateRow> {
      const [row] = await db
        .update(emailTemplates)
        .set({ ...fields, updatedAt: now })
        .where(eq(emailTemplates.id, id))
        .returning();
      return row!;
    },

    async setEnabled(id: string, enabled: boolean, now: Date): Promise<EmailTemplateRow> {
      const [row] = await db
        .update(emailTemplates)
        .set({ enabled, updatedAt: now })
        .where(eq(emailTemplates.id, id))
        .returning();
      return row!;
    },

    /** Disables a project's own emails (season null) or one season's; answers how many changed. */
    async disableAll(projectId: string, seasonId: string | null, now: Date): Promise<number> {
      const rows = await db
        .update(emailTemplates)
        .set({ enabled: false, updatedAt: now })
        .where(
          and(
            eq(emailTemplates.projectId, projectId),
            seasonId ? eq(emailTemplates.seasonId, seasonId) : isNull(emailTemplates.seasonId),
            eq(emailTemplates.enabled, true),
          ),
        )
        .returning({ id: emailTemplates.id });
      return rows.length;
    },

    /** The participants' addresses, leaving out archived ones and anyone not in the project. */
    async recipients(projectId: string, userIds: string[]): Promise<{ userId: string; email: string }[]> {
      const found: { userId: string; email: string }[] = [];
      for (let i = 0; i < userIds.length; i += 1000) {
        const rows = await db
          .select({ userId: projectParticipants.userId, email: users.email })
          .from(projectParticipants)
          .innerJoin(users, eq(users.id, projectParticipants.userId))
          .where(
            and(
              eq(projectParticipants.projectId, projectId),
              eq(projectParticipants.archived, false),
              inArray(projectParticipants.userId, userIds.slice(i, i + 1000)),
            ),
          );
        found.push(...rows);
      }
      return found;
    },

    /** A participant of the project (archived or not), for a preview. */
    async participant(projectId: string, userId: string) {
      const [row] = await db
        .select({
          id: users.id,
          firstName: users.firstName,
          lastName: users.lastName,
          salutation: users.salutation,
          email: users.email,
          archived: projectParticipants.archived,
        })
        .from(projectParticipants)
        .innerJoin(users, eq(users.id, projectParticipants.userId))
        .where(and(eq(projectParticipants.projectId, projectId), eq(projectParticipants.userId, userId)));
      return row;
    },

    /**
     * The season and round an email sent by hand (or as a test, or previewed) speaks of:
     * the template's own season, or else the project's season running on the day (then the
     * next to come, then the last that ran); in it, the round running on the day (then the
     * next, then the last).
     */
    async seasonContext(
      projectId: string,
      seasonId: string | null,
      day: string,
    ): Promise<{ seasonId: string; seasonName: string; roundNumber: number; roundEndDate: string } | null> {
      const rows = rowsOf<{ season_id: string; season_name: string; number: number; end_date: string }>(
        await db.execute(sql`
          select s.id as season_id, s.name as season_name, r.number, r.end_date::text as end_date
          from seasons s join rounds r on r.season_id = s.id
          where s.project_id = ${projectId}::uuid ${seasonId ? sql`and s.id = ${seasonId}::uuid` : sql``}
          order by
            (s.start_date <= ${day}::date and s.end_date >= ${day}::date) desc,
            (s.start_date > ${day}::date) desc,
            case when s.start_date > ${day}::date then s.start_date end asc,
            s.end_date desc,
            (r.start_date <= ${day}::date and r.end_date >= ${day}::date) desc,
            (r.start_date > ${day}::date) desc,
            case when r.start_date > ${day}::date then r.number end asc,
            r.number desc
          limit 1`),
      );
      const row = rows[0];
      return row
        ? { seasonId: row.season_id, seasonName: row.season_name, roundNumber: row.number, roundEndDate: row.end_date }
        : null;
    },

    async seasonIdByName(projectId: string, seasonName: string): Promise<string | null> {
      const [season] = await db
        .select({ id: seasons.id })
        .from(seasons)
        .where(and(eq(seasons.projectId, projectId), eq(seasons.name, seasonName)));
      return season?.id ?? null;
    },
  };
}

export type EmailsRepository = ReturnType<typeof createEmailsRepository>;
