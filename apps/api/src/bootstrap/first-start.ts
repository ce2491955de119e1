import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { hashPassword } from '../lib/passwords.js';
import { createUsersRepository } from '../modules/users/users.repository.js';
import type { FileStorage } from '../lib/storage.js';
import { seedDemoContent, type DemoSignIn } from '../../demo/demo-content.js';

export type FirstStartResult =
  | { kind: 'superadmin-created'; email: string }
  | { kind: 'demo-created'; signIns: DemoSignIn[] }
  | { kind: 'nothing-to-do' };

/**
 * Runs at every start and is safe to repeat:
 *  - SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD set and no account with that email: it is
 *    created as a superadmin (an existing account's password is never overwritten);
 *  - neither set and no users at all: demo accounts and demo content are created, and
 *    their sign-ins are answered so that main.ts prints them once.
 */
export async function runFirstStart(
  db: Db,
  options: { superadmin: { email: string; password: string } | undefined; storage?: FileStorage },
): Promise<FirstStartResult> {
  // One transaction under an advisory lock: several processes starting at once on one
  // database (behind a load balancer) run first start one after another, so the second
  // finds the first one's superadmin or demo data instead of failing on it. A start that
  // dies half-way leaves an empty database, which the next start fills again.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_START_LOCK})`);
    const txDb = tx as unknown as Db;
    const repository = createUsersRepository(txDb);
    if (options.superadmin) {
      if (await repository.findByEmail(options.superadmin.email)) return { kind: 'nothing-to-do' } as const;
      await repository.insert({
        email: options.superadmin.email,
        passwordHash: await hashPassword(options.superadmin.password),
        role: 'SUPERADMIN',
        firstName: 'Platform',
        lastName: 'Administrator',
      });
      return { kind: 'superadmin-created', email: options.superadmin.email } as const;
    }
    const [row] = await tx.select({ n: count() }).from(users);
    if ((row?.n ?? 0) > 0) return { kind: 'nothing-to-do' } as const;
    return { kind: 'demo-created', signIns: await seedDemoContent(txDb, new Date(), options.storage) } as const;
  });
}

/** Where the demo's sign-ins are kept, under DATA_DIR. */
export const DEMO_SIGN_INS_FILE = 'demo-sign-ins.txt';

/**
 * Keeps the demo's sign-ins (one a line) in DATA_DIR/demo-sign-ins.txt, whichever database
 * holds the demo (the embedded one or PostgreSQL), and answers the file's path. It holds
 * passwords: it is made anew readable and writable by the server's user alone (0600), never
 * written into a file left there before with a wider mode.
 */
export function keepDemoSignIns(dataDir: string, lines: string[]): string {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DEMO_SIGN_INS_FILE);
  rmSync(file, { force: true });
  writeFileSync(file, lines.join('\n') + '\n', { mode: 0o600, flag: 'wx' });
  return file;
}

/** The advisory lock key first start holds (any number unique to this purpose). */
const FIRST_START_LOCK = 73_110_001;
