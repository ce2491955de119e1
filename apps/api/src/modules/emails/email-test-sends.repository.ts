import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { emailTestSends, users } from '../../db/schema/index.js';

/** What a test send's record holds: who sent which template's texts to whom, and when. */
export interface TestSendRecord {
  sentAt: Date;
  senderId: string;
  projectId: string;
  templateId: string;
  recipients: string[];
  subject: string;
  body: string;
  buttonText: string;
  dashboardUrlText: string;
}

/** Whose test sends a count is about. */
export type TestSendScope = { sender: string } | { project: string };

/** The sends within the window, oldest first: when each was made and how many emails it queued. */
export interface CountedSend {
  sentAt: Date;
  count: number;
}

const keyOf = (scope: TestSendScope) => ('sender' in scope ? `sender:${scope.sender}` : `project:${scope.project}`);

/**
 * The record of test sends, and the count the limits read. Bound to the transaction that
 * counts, records and queues: `lock` serialises every send of the same person or project,
 * in every process (a PostgreSQL advisory lock, held until the transaction ends), so two
 * sends at once cannot both read a count under the limit.
 */
export function createEmailTestSendsRepository(db: Executor) {
  return {
    /** Takes the scopes' locks, always in the same order (two sends never wait on each other crosswise). */
    async lock(scopes: TestSendScope[]): Promise<void> {
      for (const key of scopes.map(keyOf).sort()) {
        await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`email-test:${key}`}, 0))`);
      }
    },

    /** The scope's sends after `since` (one made exactly then has left the window). */
    async sentSince(scope: TestSendScope, since: Date): Promise<CountedSend[]> {
      const owner =
        'sender' in scope ? eq(emailTestSends.senderId, scope.sender) : eq(emailTestSends.projectId, scope.project);
      return db
        .select({ sentAt: emailTestSends.sentAt, count: emailTestSends.recipientCount })
        .from(emailTestSends)
        .where(and(owner, gt(emailTestSends.sentAt, since)))
        .orderBy(asc(emailTestSends.sentAt));
    },

    /** Keeps the send; the sender's email is copied, so the record names them after their account is gone. */
    async record(entry: TestSendRecord): Promise<void> {
      await db.insert(emailTestSends).values({
        ...entry,
        recipientCount: entry.recipients.length,
        senderEmail: sql`coalesce((select ${users.email} from ${users} where ${users.id} = ${entry.senderId}), '')`,
      });
    },
  };
}

export type EmailTestSendsRepository = ReturnType<typeof createEmailTestSendsRepository>;
