import { and, eq, isNull, sql } from 'drizzle-orm';
import { emailTypes } from '@pss/contract';
import type { Executor } from '../../db/client.js';
import { emailTemplates, seasons } from '../../db/schema/index.js';

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
