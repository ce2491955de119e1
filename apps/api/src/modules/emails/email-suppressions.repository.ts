import { and, eq, exists, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { EmailSuppressionReason, EmailSuppressionSource, ListQuery, Paged } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import { emailSuppressions, projects, users } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';
import type { EmailEvent } from './email-events.js';

export type SuppressionRow = typeof emailSuppressions.$inferSelect;

export interface NewSuppression {
  email: string;
  projectId: string | null;
  reason: EmailSuppressionReason;
  detail: string;
  source: EmailSuppressionSource;
  at: Date;
}

const suppressionSort = {
  email: emailSuppressions.email,
  at: emailSuppressions.at,
  reason: emailSuppressions.reason,
} as const;

export type SuppressionListQuery = ListQuery<
  keyof typeof suppressionSort,
  { reason?: EmailSuppressionReason; project_id?: string }
>;

/** Soft bounces in a row that suppress an address. */
export const SOFT_BOUNCES_IN_A_ROW = 3;

/** Participant roles: their addresses are a client's (an administrator's own address is not a participant's). */
const participantRoles = ['USER', 'HALFUSER', 'TESTUSER'] as const;

export function createEmailSuppressionsRepository(db: Executor) {
  /**
   * What a client's administrator may see: an address of one of the client's participants, or
   * an unsubscribe from one of the client's projects. Null: everything (provider staff).
   */
  function visibleTo(clientId: string | null): SQL | undefined {
    if (!clientId) return undefined;
    return or(
      exists(
        db
          .select({ one: sql`1` })
          .from(users)
          .where(
            and(
              eq(users.email, emailSuppressions.email),
              eq(users.clientId, clientId),
              inArray(users.role, participantRoles),
            ),
          ),
      ),
      exists(
        db
          .select({ one: sql`1` })
          .from(projects)
          .where(and(eq(projects.id, emailSuppressions.projectId), eq(projects.clientId, clientId))),
      ),
    );
  }

  return {
    /** Adds a suppression; one already there for the address and project is left as it is (null). */
    async insert(entry: NewSuppression): Promise<SuppressionRow | null> {
      const result = await db.execute(sql`
        insert into email_suppressions (email, project_id, reason, detail, source, at)
        values (${entry.email}, ${entry.projectId}::uuid, ${entry.reason}, ${entry.detail}, ${entry.source},
          ${entry.at.toISOString()}::timestamptz)
        on conflict (email, coalesce(project_id, '00000000-0000-0000-0000-000000000000'::uuid)) do nothing
        returning id, email, project_id, reason, detail, source, at`);
      const [row] = rowsOf<{
        id: string;
        email: string;
        project_id: string | null;
        reason: EmailSuppressionReason;
        detail: string;
        source: EmailSuppressionSource;
        at: string | Date;
      }>(result);
      if (!row) return null;
      return { ...row, projectId: row.project_id, at: new Date(row.at) };
    },

    /** Removes the address's suppression (the whole address's, or one project's); answers the row removed. */
    async remove(email: string, projectId: string | null): Promise<SuppressionRow | null> {
      const [row] = await db
        .delete(emailSuppressions)
        .where(
          and(
            eq(emailSuppressions.email, email),
            projectId ? eq(emailSuppressions.projectId, projectId) : isNull(emailSuppressions.projectId),
          ),
        )
        .returning();
      return row ?? null;
    },

    /** The address's whole-address suppression, if a client's administrator (or anyone: null) may see it. */
    async addressWide(email: string, clientId: string | null): Promise<SuppressionRow | null> {
      const [row] = await db
        .select()
        .from(emailSuppressions)
        .where(and(eq(emailSuppressions.email, email), isNull(emailSuppressions.projectId), visibleTo(clientId)))
        .limit(1);
      return row ?? null;
    },

    /** Whether the address is one of the client's participants'. */
    async isClientsParticipant(email: string, clientId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), eq(users.clientId, clientId), inArray(users.role, participantRoles)))
        .limit(1);
      return Boolean(row);
    },

    /** Records an event; one already recorded (same source and id) is not, and answers false. */
    async insertEvent(event: EmailEvent & { email: string }): Promise<boolean> {
      const result = await db.execute(sql`
        insert into email_events (type, email, outbox_id, detail, source, external_id, at)
        select ${event.type}, ${event.email}, o.id, ${event.detail}, ${event.source}, ${event.externalId},
          ${event.at.toISOString()}::timestamptz
        from (select 1) as one
        left join email_outbox o on o.id = ${event.outboxId}::uuid
        on conflict (source, external_id) do nothing
        returning id`);
      return rowsOf(result).length > 0;
    },

    /**
     * The address's soft bounces in a row: those since the last email that went to it and drew
     * no bounce. An event's place in the row is the sending of the email it names (its own time
     * when it names none), so a bounce that arrives after the next email went still counts in
     * order; only an email sent before the latest bounced one, and not bounced itself, breaks
     * the row (a later one may yet bounce).
     */
    async softBouncesInARow(email: string): Promise<number> {
      const result = await db.execute(sql`
        with soft as (
          select coalesce(o.sent_at, e.at) as placed
          from email_events e left join email_outbox o on o.id = e.outbox_id
          where e.email = ${email} and e.type = 'SOFT_BOUNCE'
        ),
        delivered as (
          select max(o.sent_at) as at from email_outbox o
          where lower(o.to_address) = ${email} and o.status = 'SENT'
            and o.sent_at < (select max(placed) from soft)
            and not exists (select 1 from email_events e where e.outbox_id = o.id)
        )
        select count(*)::int as n from soft
        where placed > coalesce((select at from delivered), '-infinity'::timestamptz)`);
      return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
    },

    /** The list, paged and sorted in SQL; a client's administrator sees their own participants' addresses. */
    async list(clientId: string | null, query: SuppressionListQuery): Promise<Paged<SuppressionRow>> {
      const where = and(
        visibleTo(clientId),
        query.filter.reason ? eq(emailSuppressions.reason, query.filter.reason) : undefined,
        query.filter.project_id ? eq(emailSuppressions.projectId, query.filter.project_id) : undefined,
        searchCondition(query.search, [emailSuppressions.email]),
      );
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select()
            .from(emailSuppressions)
            .where(where)
            .orderBy(...orderByTerms(query.sort, suppressionSort, emailSuppressions.id))
            .limit(limit)
            .offset(offset),
        async () => (await db.select({ n: countAll }).from(emailSuppressions).where(where))[0]?.n ?? 0,
      );
    },
  };
}

export type EmailSuppressionsRepository = ReturnType<typeof createEmailSuppressionsRepository>;
