import { and, count, eq, gte, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { loginFailures, sessions } from '../../db/schema/index.js';

export type SessionRow = typeof sessions.$inferSelect;

export function createSessionsRepository(db: Db) {
  return {
    async insert(values: { userId: string; tokenHash: string; familyId: string; expiresAt: Date }): Promise<void> {
      await db.insert(sessions).values(values);
    },
    async findByTokenHash(tokenHash: string): Promise<SessionRow | undefined> {
      const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash)).limit(1);
      return row;
    },
    /**
     * Marks one token used. Answers false when another request revoked it first, so that
     * two refreshes racing with the same token cannot both succeed.
     */
    async revokeIfActive(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: at })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length === 1;
    },
    async revokeFamily(familyId: string, at: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: at })
        .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
    },
    async countRecentFailures(key: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(loginFailures)
        .where(and(eq(loginFailures.key, key), gte(loginFailures.failedAt, since)));
      return row?.n ?? 0;
    },
    async recordFailures(keys: string[], at: Date, purgeBefore: Date): Promise<void> {
      await db.insert(loginFailures).values(keys.map((key) => ({ key, failedAt: at })));
      await db.delete(loginFailures).where(lt(loginFailures.failedAt, purgeBefore));
    },
    async clearFailures(key: string): Promise<void> {
      await db.delete(loginFailures).where(eq(loginFailures.key, key));
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
