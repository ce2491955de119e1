import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, gte, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { loginFailures, passwordCodes, sessions, usedDashboardLinks } from '../../db/schema/index.js';

export type SessionRow = typeof sessions.$inferSelect;

export interface NewSession {
  userId: string;
  tokenHash: string;
  familyId: string;
  expiresAt: Date;
  createdAt?: Date;
}

/** A key counted in `login_failures` and how many entries it may have within the window. */
export interface CountedKey {
  key: string;
  limit: number;
}

/** What a guess at an account's secret is counted under (sign-in-checks.ts). */
export interface GuessKeys {
  account: string;
  address: string;
  /** The account from the address: whether this address has failed on this account. */
  pair: string;
}

/**
 * A counted guess: refused (its address is past its limit, or the account is locked and this
 * address has failed on it), or let through with its entries (to take back if it is right),
 * whether the account was locked, and the account's failures with this one.
 */
export type CountedGuess =
  { refused: 'address' | 'locked' } | { ids: number[]; locked: boolean; accountFailures: number };

export function createSessionsRepository(db: Db) {
  return {
    async insert(values: NewSession): Promise<void> {
      await db.insert(sessions).values(values);
    },
    async findByTokenHash(tokenHash: string): Promise<SessionRow | undefined> {
      const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash)).limit(1);
      return row;
    },
    /**
     * Spends a live token and stores its successor, in one transaction: answers false when
     * another request spent it first (that one's successor is then already stored, so the
     * loser can look for it: see `continueWithinGrace`).
     */
    async rotate(id: string, next: NewSession, at: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const nextId = randomUUID();
        const spent = await tx
          .update(sessions)
          .set({ revokedAt: at, replacedBy: nextId })
          .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
          .returning({ id: sessions.id });
        if (spent.length !== 1) return false;
        await tx.insert(sessions).values({ ...next, id: nextId });
        return true;
      });
    },
    /**
     * The grace for a token presented again shortly after its rotation (two tabs refreshing
     * at once): a new token joins the family, only if the token was rotated (not revoked by
     * logout or reuse) since `rotatedSince`, and its successor is still live, so only the
     * most recent rotation of a family qualifies. One statement.
     */
    async continueWithinGrace(id: string, next: NewSession, rotatedSince: Date, now: Date): Promise<boolean> {
      const rows = await db.execute(sql`
        insert into ${sessions} (id, user_id, token_hash, family_id, expires_at, created_at)
        select ${randomUUID()}::uuid, s.user_id, ${next.tokenHash}::text, s.family_id,
          ${next.expiresAt.toISOString()}::timestamptz, ${(next.createdAt ?? now).toISOString()}::timestamptz
        from ${sessions} s
        join ${sessions} successor on successor.id = s.replaced_by
        where s.id = ${id}::uuid and s.revoked_at >= ${rotatedSince.toISOString()}::timestamptz
          and successor.revoked_at is null and successor.expires_at > ${now.toISOString()}::timestamptz
        returning id`);
      return rowsOf(rows).length === 1;
    },
    async revokeFamily(familyId: string, at: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: at })
        .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
    },
    /** Ends every session of a user except one family (the caller's own, when known). */
    async revokeUserSessions(userId: string, at: Date, exceptFamilyId: string | null): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            exceptFamilyId ? ne(sessions.familyId, exceptFamilyId) : undefined,
          ),
        );
    },

    /**
     * Counts an attempt against every key, atomically: within one transaction that holds an
     * advisory lock per key, the entries since `windowStart` are counted and, when every key
     * is under its limit, one entry per key is added. Parallel attempts therefore queue on
     * the locks, and no more than the limit get through. Answers the ids of the new entries
     * (to take back if the attempt succeeds), or null when a limit is reached (nothing added).
     */
    async countAttempt(keys: CountedKey[], at: Date, windowStart: Date): Promise<number[] | null> {
      const sorted = [...keys].sort((a, b) => a.key.localeCompare(b.key));
      return db.transaction(async (tx) => {
        for (const { key } of sorted) {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login:${key}`}, 0))`);
        }
        for (const { key, limit } of sorted) {
          const [row] = await tx
            .select({ n: count() })
            .from(loginFailures)
            .where(and(eq(loginFailures.key, key), gte(loginFailures.failedAt, windowStart)));
          if ((row?.n ?? 0) >= limit) return null;
        }
        const added = await tx
          .insert(loginFailures)
          .values(sorted.map(({ key }) => ({ key, failedAt: at })))
          .returning({ id: loginFailures.id });
        await tx.delete(loginFailures).where(lt(loginFailures.failedAt, windowStart));
        return added.map((r) => r.id);
      });
    },
    /**
     * Counts a guess as `countAttempt` counts an attempt (under an advisory lock per key, so
     * that parallel guesses queue), with the lockout's rule: an address at its limit is
     * refused; an account at its limit is locked, and then only an address that has not failed
     * on it within the window gets through (one guess: its entry marks it).
     */
    async countGuess(
      keys: GuessKeys,
      limits: { account: number; address: number },
      at: Date,
      windowStart: Date,
    ): Promise<CountedGuess> {
      const all = [keys.account, keys.address, keys.pair].sort();
      return db.transaction(async (tx) => {
        for (const key of all) {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login:${key}`}, 0))`);
        }
        const counts = await tx
          .select({ key: loginFailures.key, n: count() })
          .from(loginFailures)
          .where(and(inArray(loginFailures.key, all), gte(loginFailures.failedAt, windowStart)))
          .groupBy(loginFailures.key);
        const failures = (key: string) => counts.find((row) => row.key === key)?.n ?? 0;
        if (failures(keys.address) >= limits.address) return { refused: 'address' as const };
        const locked = failures(keys.account) >= limits.account;
        if (locked && failures(keys.pair) > 0) return { refused: 'locked' as const };
        const added = await tx
          .insert(loginFailures)
          .values(all.map((key) => ({ key, failedAt: at })))
          .returning({ id: loginFailures.id });
        await tx.delete(loginFailures).where(lt(loginFailures.failedAt, windowStart));
        return { ids: added.map((r) => r.id), locked, accountFailures: failures(keys.account) + 1 };
      });
    },
    /** Takes back the entries of an attempt that succeeded. */
    async uncountAttempt(ids: number[]): Promise<void> {
      if (ids.length > 0) await db.delete(loginFailures).where(inArray(loginFailures.id, ids));
    },
    async clearFailures(key: string): Promise<void> {
      await db.delete(loginFailures).where(eq(loginFailures.key, key));
    },

    /** Stores a new code to set a password (its hash), dropping the user's earlier unused ones and expired codes. */
    async insertPasswordCode(userId: string, codeHash: string, at: Date, expiresAt: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(passwordCodes).where(or(eq(passwordCodes.userId, userId), lt(passwordCodes.expiresAt, at)));
        await tx.insert(passwordCodes).values({ userId, codeHash, createdAt: at, expiresAt });
      });
    },

    /**
     * Spends a code: the one update that marks it used answers its user, so a code works
     * once even when two requests bring it at the same moment. Unknown, used or expired: null.
     */
    async spendPasswordCode(codeHash: string, at: Date): Promise<string | null> {
      const [row] = await db
        .update(passwordCodes)
        .set({ usedAt: at })
        .where(and(eq(passwordCodes.codeHash, codeHash), isNull(passwordCodes.usedAt), gt(passwordCodes.expiresAt, at)))
        .returning({ userId: passwordCodes.userId });
      return row?.userId ?? null;
    },

    /**
     * Records that a dashboard link has signed someone in. Answers false when it already
     * had (the primary key decides between two parallel uses).
     */
    async useDashboardLink(linkId: string, userId: string, at: Date, expiresAt: Date): Promise<boolean> {
      await db.delete(usedDashboardLinks).where(lt(usedDashboardLinks.expiresAt, at));
      const rows = await db
        .insert(usedDashboardLinks)
        .values({ linkId, userId, usedAt: at, expiresAt })
        .onConflictDoNothing()
        .returning({ linkId: usedDashboardLinks.linkId });
      return rows.length === 1;
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
