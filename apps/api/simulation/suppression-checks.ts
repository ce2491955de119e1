import { eq, isNull } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { emailSuppressions } from '../src/db/schema/email-suppressions.js';
import { emailOutbox } from '../src/db/schema/emails.js';
import type { InvariantLedger } from './invariants.js';
import type { MailProvider } from './sim-mail-provider.js';

/**
 * `nothing_to_suppressed`, seen from both ends: nothing reaches the simulation's SMTP server
 * for an address after its bounce was reported (the mail provider's moment, checked on each
 * run's mail in season-checks.ts), and in the app's own records every reported address is on
 * the suppression list, and every outbox row to it made after its suppression (the list's
 * `at`) is SUPPRESSED, none SENT after it.
 */
export function suppressionChecks(deps: { db: Db; provider: MailProvider; ledger: InvariantLedger }) {
  const { db, provider, ledger } = deps;

  /** After the season: the suppression list and the outbox against the bounces reported. Answers the list's size. */
  async function checkOutbox(): Promise<number> {
    const listed = await db
      .select({ email: emailSuppressions.email, at: emailSuppressions.at })
      .from(emailSuppressions)
      .where(isNull(emailSuppressions.projectId));
    const since = new Map(listed.map((s) => [s.email, s.at]));
    for (const [address, reported] of provider.reported()) {
      const at = since.get(address);
      if (!at) {
        ledger.fail(
          'nothing_to_suppressed',
          `${address} bounced (reported ${reported.toISOString()}) and is not on the suppression list`,
        );
        continue;
      }
      const rows = await db
        .select({
          id: emailOutbox.id,
          status: emailOutbox.status,
          createdAt: emailOutbox.createdAt,
          sentAt: emailOutbox.sentAt,
          ruleDay: emailOutbox.ruleDay,
        })
        .from(emailOutbox)
        .where(eq(emailOutbox.toAddress, address));
      for (const row of rows) {
        const sentAfter = row.status === 'SENT' && row.sentAt !== null && row.sentAt > at;
        const notSuppressed = row.createdAt > at && row.status !== 'SUPPRESSED';
        if (sentAfter || notSuppressed) {
          ledger.fail(
            'nothing_to_suppressed',
            `${address}, suppressed ${at.toISOString()}: outbox row of ${row.ruleDay} made ${row.createdAt.toISOString()} is ${row.status}`,
          );
        }
      }
    }
    return listed.length;
  }

  return { checkOutbox };
}
