import { z } from 'zod';
import { emailsQueued } from '../emails.js';
import { route } from '../route.js';

/** A participant in one of their projects (`/users/{userId}/{projectId}/…`). */
export const participantInProjectParams = z.object({
  userId: z.string().uuid(),
  projectId: z.string().uuid(),
});

/** A new dashboard link of a participant, shown once to the administrator who asked for it. */
export const participantLink = z.object({
  url: z.string(),
  /** When the link stops working, if it has not been used by then (it signs in once). */
  expires_at: z.string(),
});
export type ParticipantLink = z.infer<typeof participantLink>;

export const deliveryParams = z.object({ id: z.string().uuid(), deliveryId: z.string().uuid() });

/**
 * One participant, one link (issue #47): an administrator hands a participant their dashboard
 * link, by email through the outbox or by copying a new one.
 */
export const participantLinkRoutes = {
  take: route({
    method: 'POST',
    path: '/users/:userId/:projectId/dashboard-link',
    access: 'admin',
    params: participantInProjectParams,
    reply: participantLink,
  }),
  send: route({
    method: 'POST',
    path: '/users/:userId/:projectId/send-link',
    access: 'admin',
    params: participantInProjectParams,
    status: 202,
    reply: emailsQueued,
  }),
};

/** A row of a project's delivery log sent again by hand. */
export const emailDeliveryRoutes = {
  resend: route({
    method: 'POST',
    path: '/projects/:id/email-deliveries/:deliveryId/resend',
    access: 'admin',
    params: deliveryParams,
    status: 202,
    reply: emailsQueued,
  }),
};
