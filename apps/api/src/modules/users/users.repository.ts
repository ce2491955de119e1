import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export function createUsersRepository(db: Db) {
  return {
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row;
    },
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    async findFirstByRole(role: UserRow['role']): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.role, role)).orderBy(users.createdAt).limit(1);
      return row;
    },
    async insert(user: NewUserRow): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ ...user, email: user.email.toLowerCase() })
        .returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
