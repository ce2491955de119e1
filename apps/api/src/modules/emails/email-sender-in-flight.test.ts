import { describe, expect, it } from 'vitest';
import type { Mailer } from '../../lib/mailer.js';
import { emailCalls } from '../../../test/email-calls.js';
import { call, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';
import { SEND_CONCURRENCY } from './email-sender.js';

/** A mail server that answers slowly, counting the messages it holds at once. */
const inFlight = { now: 0, most: 0, sent: 0 };
const slowMailer: Mailer = {
  async send() {
    inFlight.now += 1;
    inFlight.most = Math.max(inFlight.most, inFlight.now);
    await new Promise((resolve) => setTimeout(resolve, 20));
    inFlight.now -= 1;
    inFlight.sent += 1;
  },
};
const { ctx, f } = twoClientsContext({ mailer: slowMailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));

describe('a sender', () => {
  // docs/design/emails.md ("Exactly once, and its one limit") says a process killed while
  // sending may send again as many emails as it had handed to the mail server: this many.
  it(`hands the mail server at most ${SEND_CONCURRENCY} messages at once`, async () => {
    const p = await participantWork(ctx, staff).project(f.clientA.id);
    const initial = await emailCalls(ctx).emailOf(p.id, 'initial', f.asAdminA);
    const emails = Array.from({ length: 3 * SEND_CONCURRENCY }, (_, i) => `tester${i}@example.org`);
    const queued = await call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, { emails });
    expect(queued.statusCode).toBe(202);
    await ctx.app.emails.drain();
    expect(inFlight.sent).toBe(emails.length);
    expect(inFlight.most).toBe(SEND_CONCURRENCY);
  });
});
