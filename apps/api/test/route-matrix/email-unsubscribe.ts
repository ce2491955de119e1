import { anyone, participant, type MatrixRow } from './expectations.js';
import { get, post } from './requests.js';

/**
 * A reminder's one-click unsubscribe address and the participant's reminders (issue #47).
 * The address needs no session: its signed link is the permission, so every caller is
 * answered alike (modules/emails/email-unsubscribe.test.ts unsubscribes with a real one).
 */
export const emailUnsubscribeRows: Record<string, MatrixRow> = {
  // A GET only leads to the page that asks, whoever follows it.
  'GET /api/unsubscribe/:token': { expect: anyone(302), request: () => get('/unsubscribe/not-a-link-anyone-was-sent') },
  'POST /api/unsubscribe/:token': {
    expect: anyone(400),
    request: () => post('/unsubscribe/not-a-link-anyone-was-sent', { 'List-Unsubscribe': 'One-Click' }),
  },
  'GET /api/participant/reminders': { expect: participant(200), request: () => get('/participant/reminders') },
  // Both participants take part in the project: turning its reminders back on is their own to do.
  'POST /api/participant/reminders/:projectId': {
    expect: participant(204),
    request: (w) => post(`/participant/reminders/${w.project.id}`),
  },
};
