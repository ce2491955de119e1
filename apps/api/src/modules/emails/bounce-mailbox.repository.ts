import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { emailOutbox } from '../../db/schema/index.js';

/**
 * The address an email of ours went to, by its outbox id, or null when no such email went
 * out (never queued, or never handed to a mail server): the bounce mailbox takes a report
 * only about an email that went, and suppresses the address it went to.
 */
export function outboxRecipients(db: Db) {
  return async (outboxId: string): Promise<string | null> => {
    const [row] = await db
      .select({ to: emailOutbox.toAddress })
      .from(emailOutbox)
      // SENDING too: the mail server may have taken it, and bounced it, before the sender recorded it.
      .where(and(eq(emailOutbox.id, outboxId), inArray(emailOutbox.status, ['SENT', 'SENDING'])));
    return row?.to ?? null;
  };
}
