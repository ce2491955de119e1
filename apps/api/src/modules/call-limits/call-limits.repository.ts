import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { anonymousEventCounts, callCounts } from '../../db/schema/index.js';

export type AnonymousEventCountRow = typeof anonymousEventCounts.$inferSelect;

/** What an anonymous event is counted under: its call, outcome and address. */
export interface AnonymousEventKey {
  action: string;
  outcome: string;
  ip: string;
}

/** The counts of anonymous calls and of their audit events, per minute. */
export function createCallLimitsRepository(db: Executor) {
  return {
    /**
     * Counts a call under `key` in its minute, unless the key has had `limit` calls in it
     * already: one statement, whose row lock puts parallel calls in line, so no more than the
     * limit get through in any process. Answers whether the call was counted.
     */
    async countCall(key: string, minute: Date, limit: number): Promise<boolean> {
      const counted = await db
        .insert(callCounts)
        .values({ key, minute, count: 1 })
        .onConflictDoUpdate({
          target: [callCounts.key, callCounts.minute],
          set: { count: sql`${callCounts.count} + 1` },
          setWhere: sql`${callCounts.count} < ${limit}`,
        })
        .returning({ count: callCounts.count });
      return counted.length > 0;
    },

    /** Removes the counts of minutes before `before`. */
    async pruneCalls(before: Date): Promise<void> {
      await db.delete(callCounts).where(lt(callCounts.minute, before));
    },

    /** Counts an anonymous event in its minute; answers the minute's count with it (1: the first). */
    async countEvent(key: AnonymousEventKey, minute: Date): Promise<number> {
      const [row] = await db
        .insert(anonymousEventCounts)
        .values({ ...key, minute, count: 1 })
        .onConflictDoUpdate({
          target: [
            anonymousEventCounts.action,
            anonymousEventCounts.outcome,
            anonymousEventCounts.ip,
            anonymousEventCounts.minute,
          ],
          set: { count: sql`${anonymousEventCounts.count} + 1` },
        })
        .returning({ count: anonymousEventCounts.count });
      return row?.count ?? 1;
    },

    /**
     * Takes the minutes before `before` whose events were more than the one written, and not
     * summed up yet (of one key, or of all): marked in the same statement, so that each is
     * summed up once whichever process asks.
     */
    async takeUnsummed(before: Date, at: Date, key?: AnonymousEventKey): Promise<AnonymousEventCountRow[]> {
      return db
        .update(anonymousEventCounts)
        .set({ summarizedAt: at })
        .where(
          and(
            lt(anonymousEventCounts.minute, before),
            gt(anonymousEventCounts.count, 1),
            isNull(anonymousEventCounts.summarizedAt),
            key ? eq(anonymousEventCounts.action, key.action) : undefined,
            key ? eq(anonymousEventCounts.outcome, key.outcome) : undefined,
            key ? eq(anonymousEventCounts.ip, key.ip) : undefined,
          ),
        )
        .returning();
    },

    /** Removes the counts of minutes before `before` that need no summary any more. */
    async pruneEvents(before: Date): Promise<void> {
      await db
        .delete(anonymousEventCounts)
        .where(
          and(
            lt(anonymousEventCounts.minute, before),
            sql`(${anonymousEventCounts.count} = 1 or ${anonymousEventCounts.summarizedAt} is not null)`,
          ),
        );
    },
  };
}

export type CallLimitsRepository = ReturnType<typeof createCallLimitsRepository>;
