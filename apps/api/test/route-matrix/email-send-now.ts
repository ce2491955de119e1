import { owned, type MatrixRow } from './expectations.js';
import { post } from './requests.js';

/** "Send now"'s preview: who an email sent by hand would reach and who it would skip (issue #47). */
export const emailSendNowRows: Record<string, MatrixRow> = {
  'POST /api/projects/:id/send-email/preview': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.emails.project}/send-email/preview`, { ids: [w.users.participant.id] }),
  },
};
