import { emailSuppressions } from '../../src/db/schema/index.js';
import { createUser } from '../test-app.js';
import type { World } from '../world.js';
import { anyone, owned, staff, type MatrixRow } from './expectations.js';
import { del, get, post } from './requests.js';

/** A fresh participant of client A, suppressed as a bounce would (so that the lift has one to lift). */
async function suppressedParticipant(w: World): Promise<string> {
  const user = await createUser(w.ctx.db, { role: 'USER', clientId: w.clientA.id });
  await w.ctx.db.insert(emailSuppressions).values({
    email: user.email,
    reason: 'HARD_BOUNCE',
    detail: 'smtp; 550 5.1.1 user unknown',
    source: 'imap',
    at: new Date('2026-03-02T09:00:00Z'),
  });
  return user.email;
}

/** The suppression list (scoped like participants: client A's participants' addresses are client A's). */
export const emailSuppressionsRows: Record<string, MatrixRow> = {
  // Each staff member sees their own client's (client B's administrator: none of client A's).
  'GET /api/email-suppressions': { expect: staff(200), request: () => get('/email-suppressions') },
  'POST /api/email-suppressions': {
    expect: owned(201),
    request: async (w) => {
      const user = await createUser(w.ctx.db, { role: 'USER', clientId: w.clientA.id });
      return post('/email-suppressions', { email: user.email, detail: 'Asked by phone' });
    },
  },
  'DELETE /api/email-suppressions/:email': {
    expect: owned(204),
    request: async (w) => del(`/email-suppressions/${encodeURIComponent(await suppressedParticipant(w))}`),
  },
  // A provider's webhook needs no session: its signature is the permission. The world configures no
  // provider, so every caller is told 404 (modules/emails/email-webhooks.test.ts signs real samples).
  'POST /api/email-events/:provider': { expect: anyone(404), request: () => post('/email-events/sendgrid', []) },
};
