import { inArray, sql } from 'drizzle-orm';
import type { EmailDeliveryKindValue } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import { leasedQueue } from '../../db/leased-queue.js';
import { emailOutbox, type EmailAttempt } from '../../db/schema/index.js';
import { readDeliveryLog, type DeliveryLogQuery } from './email-delivery-log.js';
import { readOutboxWork } from './email-outbox-work.js';

export type { DeliveryRow } from './email-delivery-log.js';
export type { OutboxWork } from './email-outbox-work.js';

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
  /** The certificate a Certificate Email sent again by hand announces. */
  certificateId?: string | null;
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

/**
 * The outbox as a queue: a row waits QUEUED until its turn (`next_attempt_at`), is SENDING while
 * a sender holds it (`claimed_at`, `lease_until`), and one whose sender died is taken over once
 * its lease has run out. Tries are counted when recorded (`attempts`), not when claimed.
 */
export const outboxQueue = leasedQueue({
  table: emailOutbox,
  id: emailOutbox.id,
  state: emailOutbox.status,
  waiting: 'QUEUED',
  claimed: 'SENDING',
  claimedAt: emailOutbox.claimedAt,
  leaseUntil: emailOutbox.leaseUntil,
  dueAt: emailOutbox.nextAttemptAt,
  order: [emailOutbox.nextAttemptAt, emailOutbox.id],
  takeOver: true,
});

export function createEmailOutboxRepository(db: Executor) {
  /** Ends a claim, if it is still this sender's (a row whose lease ran out may have been taken over). */
  function finishClaim(
    id: string,
    claimedAt: Date,
    fields: Partial<Omit<typeof emailOutbox.$inferInsert, 'attempts' | 'attemptLog'>>,
    attempt: EmailAttempt | null,
  ): Promise<boolean> {
    return outboxQueue.end(db, id, claimedAt, {
      ...fields,
      ...(attempt
        ? {
            attempts: sql`${emailOutbox.attempts} + 1`,
            attemptLog: sql`${emailOutbox.attemptLog} || ${JSON.stringify([attempt])}::jsonb`,
          }
        : {}),
    });
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
          certificate_id: e.certificateId ?? null,
        }));
        const result = await db.execute(sql`
          insert into email_outbox (project_id, template_id, season_id, round_number, user_id, to_address, kind,
            rule_day, dedupe_key, certificate_id, next_attempt_at, created_at)
          select r.project_id, r.template_id, r.season_id, r.round_number, r.user_id, r.to_address, r.kind,
            r.rule_day, r.dedupe_key, r.certificate_id, ${now.toISOString()}::timestamptz,
            ${now.toISOString()}::timestamptz
          from json_to_recordset(${JSON.stringify(chunk)}::json) as r(project_id uuid, template_id uuid,
            season_id uuid, round_number smallint, user_id uuid, to_address text, kind text, rule_day date,
            dedupe_key text, certificate_id uuid)
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
     * Takes up to `limit` rows for this sender (db/leased-queue.ts): those whose turn has come,
     * and those a sender claimed but did not finish before its lease ran out (it died). Two
     * senders asking at once get different rows, never the same one; each kind is read through
     * its own index (a scheduler run queues tens of thousands at once).
     */
    async claim(now: Date, leaseUntil: Date, limit: number): Promise<{ id: string; claimedAt: Date }[]> {
      const ids = await outboxQueue.claim(db, { now, leaseMs: leaseUntil.getTime() - now.getTime(), limit });
      return ids.map((id) => ({ id, claimedAt: now }));
    },

    /**
     * What was not sent for want of a mail server (UNSENT), queued again once a process with
     * one starts: the sender then checks each is still true, as for any email (a reminder
     * whose day has gone is CANCELLED, saying why). One queued more than `keptDays` ago is
     * old news, whatever its kind: CANCELLED here, saying so. Test sends stay as they were:
     * their sender tested an email that day, not this one.
     */
    async requeueUnsent(now: Date, keptDays: number): Promise<{ requeued: number; dropped: number }> {
      const at = now.toISOString();
      const cutoff = new Date(now.getTime() - keptDays * 86_400_000).toISOString();
      const result = await db.execute(sql`
        update email_outbox set
          status = case when created_at >= ${cutoff}::timestamptz then 'QUEUED' else 'CANCELLED' end,
          next_attempt_at = ${at}::timestamptz,
          last_error = case when created_at >= ${cutoff}::timestamptz then last_error
            else ${`Not sent for want of a mail server, and more than ${keptDays} days old when one was configured.`} end
        where status = 'UNSENT' and kind <> 'TEST'
        returning status`);
      const statuses = rowsOf<{ status: string }>(result).map((r) => r.status);
      const requeued = statuses.filter((status) => status === 'QUEUED').length;
      return { requeued, dropped: statuses.length - requeued };
    },

    /** The claimed rows with their template, participant, season and round progress. */
    work: (ids: string[]) => readOutboxWork(db, ids),

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

    /** Not sent, and not to be: no longer due, no mail server, or a suppressed address (no attempt is counted). */
    markNotSent: (id: string, claimedAt: Date, status: 'CANCELLED' | 'UNSENT' | 'SUPPRESSED', reason: string) =>
      finishClaim(id, claimedAt, { status, lastError: reason }, null),

    /** The delivery log of a project, paged and sorted in SQL (newest first by the project's own index). */
    deliveries: (projectId: string, query: DeliveryLogQuery) => readDeliveryLog(db, projectId, query),
  };
}

export type EmailOutboxRepository = ReturnType<typeof createEmailOutboxRepository>;
