import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { callCounts } from '../../db/schema/index.js';
import { outboxQueue } from './email-outbox.repository.js';

/** The count the pace is kept under, in the call counts' table (beside the anonymous calls' route names). */
export const EMAIL_PACE_KEY = 'emails.sent';

const MINUTE_MS = 60_000;

/**
 * `EMAIL_MAX_PER_MINUTE`: the most messages handed to the mail server in a minute, by every
 * server process together, for providers that take only so many (a sending rate). Counted in
 * the database, per minute of the app's clock, in the table the limits on anonymous calls use
 * (`call_counts`, swept of past minutes by them): one upsert whose row lock puts parallel
 * senders in line, so no minute passes the limit whatever the number of processes. A fixed
 * window: up to twice the limit may go in the sixty seconds across the turn of a minute.
 *
 * A message beyond the pace is not tried: its row goes back to the queue until the next
 * minute, its attempts untouched, so pacing never makes an email fail.
 */
export function createEmailPace(db: Executor, perMinute: number) {
  return {
    perMinute,

    /** Takes one of the minute's sends; false when every one of them is taken (by any process). */
    async take(now: Date): Promise<boolean> {
      const minute = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
      const counted = await db
        .insert(callCounts)
        .values({ key: EMAIL_PACE_KEY, minute, count: 1 })
        .onConflictDoUpdate({
          target: [callCounts.key, callCounts.minute],
          set: { count: sql`${callCounts.count} + 1` },
          setWhere: sql`${callCounts.count} < ${perMinute}`,
        })
        .returning({ count: callCounts.count });
      return counted.length > 0;
    },

    /** When a message beyond the pace is tried again: the start of the next minute. */
    nextMinute(now: Date): Date {
      return new Date((Math.floor(now.getTime() / MINUTE_MS) + 1) * MINUTE_MS);
    },

    /**
     * Puts a claimed row back in the queue until `until`, as it was (no try counted, none in
     * its log), if the claim is still this sender's.
     */
    async defer(id: string, claimedAt: Date, until: Date): Promise<void> {
      await outboxQueue.giveBack(db, id, claimedAt, { nextAttemptAt: until });
    },
  };
}

export type EmailPace = ReturnType<typeof createEmailPace>;
