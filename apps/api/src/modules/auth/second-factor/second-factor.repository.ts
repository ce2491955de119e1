import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../../db/client.js';
import {
  passkeys,
  recoveryCodes,
  secondFactorChallenges,
  totpFactors,
  type SecondFactorChallengePurpose,
} from '../../../db/schema/index.js';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type ChallengeRow = typeof secondFactorChallenges.$inferSelect;
export type TotpRow = typeof totpFactors.$inferSelect;

/**
 * Spent and expired challenges of a member are kept a day (for a look at what happened), then
 * removed; a passkey sign-in's that names no one, as soon as it expires (anyone may ask for one:
 * the call limits bound how many, this how long they stay).
 */
const CHALLENGE_KEEP_MS = 24 * 3600_000;

/** The rows of staff members' second factors and of the half-signed-in state. */
export function createSecondFactorRepository(db: Executor) {
  async function findTotp(userId: string): Promise<TotpRow | undefined> {
    const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId));
    return row;
  }

  async function recoveryCodesLeft(userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return row?.n ?? 0;
  }

  /** Marks a member's open steps of these kinds used: they can no longer complete. */
  async function endOpenSteps(userId: string, purposes: SecondFactorChallengePurpose[], now: Date): Promise<void> {
    await db
      .update(secondFactorChallenges)
      .set({ usedAt: now })
      .where(
        and(
          eq(secondFactorChallenges.userId, userId),
          inArray(secondFactorChallenges.purpose, purposes),
          isNull(secondFactorChallenges.usedAt),
        ),
      );
  }

  return {
    /* ---------- authenticator app ---------- */

    findTotp,

    /** Keeps a new secret awaiting its first code; false when a confirmed one is there (it stays). */
    async startTotp(userId: string, secret: string, now: Date): Promise<boolean> {
      const written = await db
        .insert(totpFactors)
        .values({ userId, secret, createdAt: now })
        .onConflictDoUpdate({
          target: totpFactors.userId,
          set: { secret, createdAt: now, lastStep: null },
          setWhere: isNull(totpFactors.confirmedAt),
        })
        .returning({ userId: totpFactors.userId });
      return written.length > 0;
    },

    /** Confirms the secret awaiting its first code, with that code's time step (it is spent). */
    async confirmTotp(userId: string, secret: string, step: number, now: Date): Promise<boolean> {
      const confirmed = await db
        .update(totpFactors)
        .set({ confirmedAt: now, lastStep: step })
        .where(and(eq(totpFactors.userId, userId), eq(totpFactors.secret, secret), isNull(totpFactors.confirmedAt)))
        .returning({ userId: totpFactors.userId });
      return confirmed.length > 0;
    },

    /**
     * Spends a code's time step: one statement, so that two requests with the same code
     * cannot both pass. False when this step, or a later one, was spent already.
     */
    async spendStep(userId: string, step: number): Promise<boolean> {
      const spent = await db
        .update(totpFactors)
        .set({ lastStep: step })
        .where(
          and(
            eq(totpFactors.userId, userId),
            isNotNull(totpFactors.confirmedAt),
            or(isNull(totpFactors.lastStep), lt(totpFactors.lastStep, step)),
          ),
        )
        .returning({ userId: totpFactors.userId });
      return spent.length > 0;
    },

    async removeTotp(userId: string): Promise<void> {
      await db.delete(totpFactors).where(eq(totpFactors.userId, userId));
    },

    /* ---------- passkeys ---------- */

    listPasskeys(userId: string): Promise<PasskeyRow[]> {
      return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.createdAt, passkeys.id);
    },

    async findPasskey(credentialId: string): Promise<PasskeyRow | undefined> {
      const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
      return row;
    },

    async addPasskey(values: typeof passkeys.$inferInsert): Promise<PasskeyRow> {
      const [row] = await db.insert(passkeys).values(values).returning();
      return row!;
    },

    /** Notes a passkey's sign-in: false when it is gone (removed, or the member's factors reset). */
    async passkeyUsed(id: string, counter: number, now: Date): Promise<boolean> {
      const used = await db
        .update(passkeys)
        .set({ counter, lastUsedAt: now })
        .where(eq(passkeys.id, id))
        .returning({ id: passkeys.id });
      return used.length > 0;
    },

    async removePasskey(userId: string, id: string): Promise<boolean> {
      const removed = await db
        .delete(passkeys)
        .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
        .returning({ id: passkeys.id });
      return removed.length > 0;
    },

    /* ---------- recovery codes ---------- */

    /** The member's codes are these from now on: the old ones, used or not, go. */
    async replaceRecoveryCodes(userId: string, codes: { lookup: string; codeHash: string }[], now: Date) {
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      if (codes.length === 0) return;
      await db.insert(recoveryCodes).values(codes.map((code) => ({ ...code, userId, createdAt: now })));
    },

    /** A member's codes that begin as a typed one does, used or not (a used one is told apart). */
    recoveryCodes(userId: string, lookup: string) {
      return db
        .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash, usedAt: recoveryCodes.usedAt })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.lookup, lookup)));
    },

    /** Spends a code: false when another request spent it first. */
    async spendRecoveryCode(id: string, now: Date): Promise<boolean> {
      const spent = await db
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(and(eq(recoveryCodes.id, id), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return spent.length > 0;
    },

    recoveryCodesLeft,

    /* ---------- every factor ---------- */

    /** The factors a member can sign in with: a confirmed app, passkeys, unused recovery codes. */
    async factorsOf(userId: string): Promise<{ totp: boolean; passkeys: number; recoveryCodes: number }> {
      // One statement: it runs in transactions too, where one connection takes one query at a time.
      const [row] = rowsOf<{ totp: boolean; passkeys: number; recovery_codes: number }>(
        await db.execute(sql`select
          exists (select 1 from ${totpFactors}
            where ${totpFactors.userId} = ${userId} and ${totpFactors.confirmedAt} is not null) as totp,
          (select count(*)::int from ${passkeys} where ${passkeys.userId} = ${userId}) as passkeys,
          (select count(*)::int from ${recoveryCodes}
            where ${recoveryCodes.userId} = ${userId} and ${recoveryCodes.usedAt} is null) as recovery_codes`),
      );
      return { totp: Boolean(row?.totp), passkeys: row?.passkeys ?? 0, recoveryCodes: row?.recovery_codes ?? 0 };
    },

    /** Clears every factor of a member, and their half-finished sign-ins. */
    async resetFactors(userId: string): Promise<void> {
      await db.delete(totpFactors).where(eq(totpFactors.userId, userId));
      await db.delete(passkeys).where(eq(passkeys.userId, userId));
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db.delete(secondFactorChallenges).where(eq(secondFactorChallenges.userId, userId));
    },

    /**
     * Holds the member's lock until the transaction ends: a change of their factors and the
     * last step of their sign-in take it, so that neither sees the other half done.
     */
    async lockMember(userId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`second-factor:${userId}`}, 0))`);
    },

    /* ---------- the half-signed-in state ---------- */

    async insertChallenge(values: {
      tokenHash: string;
      userId: string | null;
      purpose: SecondFactorChallengePurpose;
      webauthnChallenge?: string | null;
      now: Date;
      expiresAt: Date;
    }): Promise<void> {
      await db
        .delete(secondFactorChallenges)
        .where(
          or(
            lt(secondFactorChallenges.expiresAt, new Date(values.now.getTime() - CHALLENGE_KEEP_MS)),
            and(isNull(secondFactorChallenges.userId), lt(secondFactorChallenges.expiresAt, values.now)),
          ),
        );
      await db.insert(secondFactorChallenges).values({
        tokenHash: values.tokenHash,
        userId: values.userId,
        purpose: values.purpose,
        webauthnChallenge: values.webauthnChallenge ?? null,
        createdAt: values.now,
        expiresAt: values.expiresAt,
      });
    },

    /** A challenge neither spent nor expired, by its token's hash. */
    async liveChallenge(tokenHash: string, now: Date): Promise<ChallengeRow | undefined> {
      const [row] = await db
        .select()
        .from(secondFactorChallenges)
        .where(
          and(
            eq(secondFactorChallenges.tokenHash, tokenHash),
            isNull(secondFactorChallenges.usedAt),
            gt(secondFactorChallenges.expiresAt, now),
          ),
        );
      return row;
    },

    /** Ends a member's passkey registrations under way: a new one replaces them (one at a time). */
    endRegistrations: (userId: string, now: Date) => endOpenSteps(userId, ['register'], now),

    /** Ends every half-signed-in step of a member (`verify`, `enroll`) still open: their factors changed. */
    endHalfSignedIn: (userId: string, now: Date) => endOpenSteps(userId, ['verify', 'enroll'], now),

    /** A signed-in member's live passkey registration (one at a time: see `endRegistrations`). */
    async liveRegistration(userId: string, now: Date): Promise<ChallengeRow | undefined> {
      const [row] = await db
        .select()
        .from(secondFactorChallenges)
        .where(
          and(
            eq(secondFactorChallenges.userId, userId),
            eq(secondFactorChallenges.purpose, 'register'),
            isNull(secondFactorChallenges.usedAt),
            gt(secondFactorChallenges.expiresAt, now),
          ),
        )
        .orderBy(desc(secondFactorChallenges.createdAt))
        .limit(1);
      return row;
    },

    async challengeById(id: string): Promise<ChallengeRow | undefined> {
      const [row] = await db.select().from(secondFactorChallenges).where(eq(secondFactorChallenges.id, id));
      return row;
    },

    async setWebauthnChallenge(id: string, challenge: string): Promise<void> {
      await db
        .update(secondFactorChallenges)
        .set({ webauthnChallenge: challenge })
        .where(eq(secondFactorChallenges.id, id));
    },

    /** Spends a live challenge: false when it was spent (or ran out) first. */
    async spendChallenge(id: string, now: Date): Promise<boolean> {
      const spent = await db
        .update(secondFactorChallenges)
        .set({ usedAt: now })
        .where(
          and(
            eq(secondFactorChallenges.id, id),
            isNull(secondFactorChallenges.usedAt),
            gt(secondFactorChallenges.expiresAt, now),
          ),
        )
        .returning({ id: secondFactorChallenges.id });
      return spent.length > 0;
    },
  };
}

export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
