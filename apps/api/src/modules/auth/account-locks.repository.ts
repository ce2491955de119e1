import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accountLocks } from '../../db/schema/index.js';

/** The unlock links of locked accounts (only a SHA-256 of each link's token is kept). */
export function createAccountLocksRepository(db: Executor) {
  return {
    /**
     * Keeps a new unlock link for an account, unless the account has one mailed since
     * `mailedSince` and not spent (its owner has a link: no second mail while it stands). One
     * statement, so that two failures at once make one lock. Answers whether it made one.
     */
    async lock(values: { userId: string; tokenHash: string; at: Date; expiresAt: Date; mailedSince: Date }) {
      const { userId, tokenHash, at, expiresAt, mailedSince } = values;
      const made = await db
        .insert(accountLocks)
        .values({ userId, lockedAt: at, tokenHash, expiresAt })
        .onConflictDoUpdate({
          target: accountLocks.userId,
          set: { lockedAt: at, tokenHash, expiresAt, usedAt: null },
          setWhere: sql`${accountLocks.usedAt} is not null or ${accountLocks.lockedAt} < ${mailedSince.toISOString()}::timestamptz`,
        })
        .returning({ userId: accountLocks.userId });
      return made.length > 0;
    },

    /**
     * Spends an unlock link: the one update that marks it used answers its account, so a link
     * works once even when two requests bring it at once. Unknown, used or expired: null.
     */
    async spend(tokenHash: string, at: Date): Promise<string | null> {
      const [row] = await db
        .update(accountLocks)
        .set({ usedAt: at })
        .where(and(eq(accountLocks.tokenHash, tokenHash), isNull(accountLocks.usedAt), gt(accountLocks.expiresAt, at)))
        .returning({ userId: accountLocks.userId });
      return row?.userId ?? null;
    },
  };
}

export type AccountLocksRepository = ReturnType<typeof createAccountLocksRepository>;
