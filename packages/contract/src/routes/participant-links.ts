import { z } from 'zod';
import { EmailType, emailsQueued } from '../emails.js';
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
    audit: { kind: 'change', name: 'participantLinks.take' },
    params: participantInProjectParams,
    reply: participantLink,
  }),
  send: route({
    method: 'POST',
    path: '/users/:userId/:projectId/send-link',
    access: 'admin',
    audit: { kind: 'change', name: 'participantLinks.send' },
    params: participantInProjectParams,
    status: 202,
    reply: emailsQueued,
  }),
};

/** How one kind of email fared in the project: sent, and what came back. */
export const emailTypeDelivery = z.object({
  email_type: EmailType,
  email_name: z.string(),
  /** Messages the mail server took (tests left out). */
  sent: z.number().int(),
  /** Of those, messages a bounce report (hard or soft) came back for. */
  bounced: z.number().int(),
  /** Of those, messages a recipient marked as spam (a complaint report). */
  complained: z.number().int(),
  /** Not sent: the address (or, for a reminder, this project's reminders) was suppressed. */
  suppressed: z.number().int(),
});

/**
 * The project's email delivery on the Progress Dashboard: each email type's figures, the
 * participants who turned the project's reminders off, and the bounce rate, with a warning
 * above 2 % (mailbox providers start to refuse a sender around there).
 */
export const emailDeliveryStats = z.object({
  by_type: z.array(emailTypeDelivery),
  /** Participants who turned this project's reminder emails off (their own one-click unsubscribe). */
  unsubscribed: z.number().int(),
  /** Bounced messages over sent messages, 0 to 1 (0 when nothing was sent). */
  bounce_rate: z.number(),
  /** The bounce rate is above BOUNCE_RATE_WARNING. */
  bounce_warning: z.boolean(),
});
export type EmailDeliveryStats = z.infer<typeof emailDeliveryStats>;

/** The bounce rate above which the Progress Dashboard warns. */
export const BOUNCE_RATE_WARNING = 0.02;

/** A row of a project's delivery log sent again by hand. */
export const emailDeliveryRoutes = {
  stats: route({
    method: 'GET',
    path: '/projects/:id/email-delivery-stats',
    access: 'admin',
    params: z.object({ id: z.string().uuid() }),
    reply: emailDeliveryStats,
  }),
  resend: route({
    method: 'POST',
    path: '/projects/:id/email-deliveries/:deliveryId/resend',
    access: 'admin',
    audit: { kind: 'change', name: 'emailDeliveries.resend' },
    params: deliveryParams,
    status: 202,
    reply: emailsQueued,
  }),
};
