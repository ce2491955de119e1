import { and, eq, inArray, sql } from 'drizzle-orm';
import type { EmailDeliveryKindValue, EmailDeliveryStatusValue, EmailTypeValue, ListQuery, Paged } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';
import { emailOutbox, emailTemplates, seasons, users, type EmailAttempt } from '../../db/schema/index.js';

/** A row to put in the outbox. */
export interface OutboxEntry {
  projectId: string;
  templateId: string;
  seasonId: string | null;
  roundNumber: number | null;
  userId: string | null;
  toAddress: string;
  kind: EmailDeliveryKindValue;
  ruleDay: string;
  dedupeKey: string;
}

/**
 * The unique key of an email: scheduled mail by (project, email, season, round,
 * participant, the rule's day); a manual send by (project, email, participant, day), so a
 * double click or a second send that day does not mail anyone twice.
 */
export function scheduledKey(e: Omit<OutboxEntry, 'toAddress' | 'kind' | 'dedupeKey'>): string {
  return `S:${e.projectId}:${e.templateId}:${e.seasonId ?? '-'}:${e.roundNumber ?? '-'}:${e.userId}:${e.ruleDay}`;
}
export function manualKey(projectId: string, templateId: string, userId: string, day: string): string {
  return `M:${projectId}:${templateId}:${userId}:${day}`;
}

/** A claimed row with what it takes to decide whether it is still due and to write it. */
export interface OutboxWork {
  id: string;
  kind: EmailDeliveryKindValue;
  attempts: number;
  toAddress: string;
  ruleDay: string;
  userId: string | null;
  roundNumber: number | null;
  template: {
    type: EmailTypeValue;
    subject: string;
    body: string;
    buttonText: string;
    dashboardUrlText: string;
    enabled: boolean;
    sendMode: 'AUTOMATIC' | 'MANUAL';
  };
  projectName: string;
  projectArchived: boolean;
  participant: { firstName: string; lastName: string; salutation: string | null; archived: boolean } | null;
  seasonName: string | null;
  roundEndDate: string | null;
  casesInRound: number;
  completedInRound: number;
  /** The season's Results Summary is posted (a summary email goes only while it is). */
  summaryPosted: boolean;
}

interface WorkRow {
  id: string;
  kind: EmailDeliveryKindValue;
  attempts: number;
  to_address: string;
  rule_day: string;
  user_id: string | null;
  round_number: number | null;
  type: EmailTypeValue;
  subject: string;
  body: string;
  button_text: string;
  dashboard_url_text: string;
  enabled: boolean;
  send_mode: 'AUTOMATIC' | 'MANUAL';
  project_name: string;
  project_status: string;
  first_name: string | null;
  last_name: string | null;
  salutation: string | null;
  archived: boolean | null;
  season_name: string | null;
  round_end: string | null;
  cases_in_round: number;
  completed_in_round: number;
  summary_posted: boolean;
}

export type DeliveryRow = typeof emailOutbox.$inferSelect & {
  templateType: EmailTypeValue;
  seasonName: string | null;
  firstName: string | null;
  lastName: string | null;
};

const deliverySort = {
  queued_at: emailOutbox.createdAt,
  scheduled_for: emailOutbox.ruleDay,
  status: emailOutbox.status,
} as const;

export function createEmailOutboxRepository(db: Executor) {
  /** Ends a claim, if it is still this sender's (a row whose lease ran out may have been taken over). */
  async function finishClaim(
    id: string,
    claimedAt: Date,
    fields: Partial<Omit<typeof emailOutbox.$inferInsert, 'attempts' | 'attemptLog'>>,
    attempt: EmailAttempt | null,
  ): Promise<boolean> {
    const rows = await db
      .update(emailOutbox)
      .set({
        ...fields,
        claimedAt: null,
        leaseUntil: null,
        ...(attempt
          ? {
              attempts: sql`${emailOutbox.attempts} + 1`,
              attemptLog: sql`${emailOutbox.attemptLog} || ${JSON.stringify([attempt])}::jsonb`,
            }
          : {}),
      })
      .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'SENDING'), eq(emailOutbox.claimedAt, claimedAt)))
      .returning({ id: emailOutbox.id });
    return rows.length > 0;
  }

  return {
    /** Puts rows in the outbox; one already there under the same key is left as it is. Answers how many are new. */
    async queue(entries: OutboxEntry[], now: Date): Promise<number> {
      let added = 0;
      for (let i = 0; i < entries.length; i += 5000) {
        const chunk = entries.slice(i, i + 5000).map((e) => ({
          project_id: e.projectId,
          template_id: e.templateId,
          season_id: e.seasonId,
          round_number: e.roundNumber,
          user_id: e.userId,
          to_address: e.toAddress,
          kind: e.kind,
          rule_day: e.ruleDay,
          dedupe_key: e.dedupeKey,
        }));
        const result = await db.execute(sql`
          insert into email_outbox (project_id, template_id, season_id, round_number, user_id, to_address, kind,
            rule_day, dedupe_key, next_attempt_at, created_at)
          select r.project_id, r.template_id, r.season_id, r.round_number, r.user_id, r.to_address, r.kind,
            r.rule_day, r.dedupe_key, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
          from json_to_recordset(${JSON.stringify(chunk)}::json) as r(project_id uuid, template_id uuid,
            season_id uuid, round_number smallint, user_id uuid, to_address text, kind text, rule_day date,
            dedupe_key text)
          on conflict (dedupe_key) do nothing
          returning id`);
        added += rowsOf(result).length;
      }
      return added;
    },

    /** Which of these keys are already in the outbox. */
    async existingKeys(keys: string[]): Promise<Set<string>> {
      if (!keys.length) return new Set();
      const rows = await db
        .select({ key: emailOutbox.dedupeKey })
        .from(emailOutbox)
        .where(inArray(emailOutbox.dedupeKey, keys));
      return new Set(rows.map((r) => r.key));
    },

    /**
     * Takes up to `limit` rows for this sender: those whose turn has come, and those a
     * sender claimed but did not finish before its lease ran out (it died). SKIP LOCKED:
     * two senders asking at once get different rows, never the same one.
     *
     * The first `limit` of each kind are taken apart, each through its own index, and the
     * first `limit` of both kept: with one OR of the two, every due row was read and
     * sorted on each claim (a scheduler run queues tens of thousands at once).
     */
    async claim(now: Date, leaseUntil: Date, limit: number): Promise<{ id: string; claimedAt: Date }[]> {
      const at = now.toISOString();
      const result = await db.execute(sql`
        update email_outbox set status = 'SENDING', claimed_at = ${at}::timestamptz,
          lease_until = ${leaseUntil.toISOString()}::timestamptz
        where id in (
          select id from (
            select id, next_attempt_at from (
              select id, next_attempt_at from email_outbox
              where status = 'QUEUED' and next_attempt_at <= ${at}::timestamptz
              order by next_attempt_at, id
              for update skip locked
              limit ${limit}
            ) as queued
            union all
            select id, next_attempt_at from (
              select id, next_attempt_at from email_outbox
              where status = 'SENDING' and lease_until < ${at}::timestamptz
              order by next_attempt_at, id
              for update skip locked
              limit ${limit}
            ) as abandoned
          ) as due
          order by next_attempt_at, id
          limit ${limit}
        )
        returning id`);
      return rowsOf<{ id: string }>(result).map((r) => ({ id: r.id, claimedAt: now }));
    },

    /** The claimed rows with their template, participant, season and round progress. */
    async work(ids: string[]): Promise<OutboxWork[]> {
      if (!ids.length) return [];
      const result = await db.execute(sql`
        select o.id, o.kind, o.attempts, o.to_address, o.rule_day::text as rule_day,
          o.user_id, o.round_number, t.type, t.subject, t.body, t.button_text, t.dashboard_url_text, t.enabled,
          t.send_mode, p.name as project_name, p.status as project_status,
          u.first_name, u.last_name, u.salutation, pp.archived, s.name as season_name, r.end_date::text as round_end,
          (select count(*)::int from cases c
            where c.season_id = o.season_id and c.round_number = o.round_number and c.status = 'PUBLISHED') as cases_in_round,
          (select count(*)::int from user_season_round_cases x
            where x.user_id = o.user_id and x.season_id = o.season_id and x.round_number = o.round_number
              and x.status = 'COMPLETE') as completed_in_round,
          exists (select 1 from season_summaries ss where ss.season_id = o.season_id and ss.status = 'POSTED')
            as summary_posted
        from email_outbox o
        join email_templates t on t.id = o.template_id
        join projects p on p.id = o.project_id
        left join users u on u.id = o.user_id
        left join project_participants pp on pp.project_id = o.project_id and pp.user_id = o.user_id
        left join seasons s on s.id = o.season_id
        left join rounds r on r.season_id = o.season_id and r.number = o.round_number
        where o.id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`);
      return rowsOf<WorkRow>(result).map((r) => ({
        id: r.id,
        kind: r.kind,
        attempts: r.attempts,
        toAddress: r.to_address,
        ruleDay: r.rule_day,
        userId: r.user_id,
        roundNumber: r.round_number,
        template: {
          type: r.type,
          subject: r.subject,
          body: r.body,
          buttonText: r.button_text,
          dashboardUrlText: r.dashboard_url_text,
          enabled: r.enabled,
          sendMode: r.send_mode,
        },
        projectName: r.project_name,
        projectArchived: r.project_status === 'ARCHIVED',
        participant:
          r.user_id && r.first_name !== null
            ? {
                firstName: r.first_name,
                lastName: r.last_name ?? '',
                salutation: r.salutation,
                archived: r.archived ?? true,
              }
            : null,
        seasonName: r.season_name,
        roundEndDate: r.round_end,
        casesInRound: r.cases_in_round,
        completedInRound: r.completed_in_round,
        summaryPosted: r.summary_posted,
      }));
    },

    markSent: (id: string, claimedAt: Date, at: Date) =>
      finishClaim(
        id,
        claimedAt,
        { status: 'SENT', sentAt: at, lastError: null, errorCode: null },
        {
          at: at.toISOString(),
          outcome: 'SENT',
        },
      ),

    markRetry: (id: string, claimedAt: Date, at: Date, nextAttemptAt: Date, error: string) =>
      finishClaim(
        id,
        claimedAt,
        { status: 'QUEUED', nextAttemptAt, lastError: error },
        {
          at: at.toISOString(),
          outcome: 'RETRY',
          error,
        },
      ),

    markFailed: (id: string, claimedAt: Date, at: Date, error: string) =>
      finishClaim(
        id,
        claimedAt,
        { status: 'FAILED', lastError: error, errorCode: 'EMAILS_SEND_FAILED' },
        {
          at: at.toISOString(),
          outcome: 'FAILED',
          error,
        },
      ),

    /** Not sent, and not to be: no longer due, or no mail server (no attempt at sending is counted). */
    markNotSent: (id: string, claimedAt: Date, status: 'CANCELLED' | 'UNSENT', reason: string) =>
      finishClaim(id, claimedAt, { status, lastError: reason }, null),

    /** The delivery log of a project, paged and sorted in SQL (newest first by the project's own index). */
    async deliveries(
      projectId: string,
      query: ListQuery<
        keyof typeof deliverySort,
        { status?: EmailDeliveryStatusValue; kind?: EmailDeliveryKindValue; email_id?: string }
      >,
    ): Promise<Paged<DeliveryRow>> {
      const where = and(
        eq(emailOutbox.projectId, projectId),
        query.filter.status ? eq(emailOutbox.status, query.filter.status) : undefined,
        query.filter.kind ? eq(emailOutbox.kind, query.filter.kind) : undefined,
        query.filter.email_id ? eq(emailOutbox.templateId, query.filter.email_id) : undefined,
        searchCondition(query.search, [emailOutbox.toAddress]),
      );
      return runPaged(
        query,
        async (limit, offset) => {
          const rows = await db
            .select({
              row: emailOutbox,
              templateType: emailTemplates.type,
              seasonName: seasons.name,
              firstName: users.firstName,
              lastName: users.lastName,
            })
            .from(emailOutbox)
            .innerJoin(emailTemplates, eq(emailTemplates.id, emailOutbox.templateId))
            .leftJoin(seasons, eq(seasons.id, emailOutbox.seasonId))
            .leftJoin(users, eq(users.id, emailOutbox.userId))
            .where(where)
            .orderBy(...orderByTerms(query.sort, deliverySort, emailOutbox.id))
            .limit(limit)
            .offset(offset);
          return rows.map((r) => ({
            ...r.row,
            templateType: r.templateType,
            seasonName: r.seasonName,
            firstName: r.firstName,
            lastName: r.lastName,
          }));
        },
        async () => (await db.select({ n: countAll }).from(emailOutbox).where(where))[0]?.n ?? 0,
      );
    },
  };
}

export type EmailOutboxRepository = ReturnType<typeof createEmailOutboxRepository>;
