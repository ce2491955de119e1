import { z } from 'zod';
import { route } from '../route.js';

/** A reminder's unsubscribe token (unsubscribe-links.ts in the API; checked there, not here, so a bad one is its own error). */
export const unsubscribeParams = z.object({ token: z.string().min(1).max(200) });

/**
 * RFC 8058's one-click body, `List-Unsubscribe=One-Click`, as a mailbox provider POSTs it
 * (application/x-www-form-urlencoded) or the unsubscribe page sends it (JSON).
 */
export const oneClickBody = z.object({ 'List-Unsubscribe': z.literal('One-Click') });

/** A project whose reminders the participant turned off, and since when. */
export const remindersOff = z.object({ project_id: z.string().uuid(), since: z.string() });
export const participantReminders = z.object({ off: z.array(remindersOff) });
export type ParticipantReminders = z.infer<typeof participantReminders>;

export const reminderProjectParams = z.object({ projectId: z.string().uuid() });

/**
 * Signed and unsubscribable (issue #47): a reminder's List-Unsubscribe address, which a POST
 * (one click, RFC 8058) makes stop that participant's reminders for that project, and a GET
 * only leads to a page that asks first (link scanners open links; they must not unsubscribe).
 * The participant sees from their dashboard which projects' reminders are off and turns them
 * back on.
 */
export const emailUnsubscribeRoutes = {
  /** A browser following the link: redirected to the web page `/unsubscribe?token=`, which asks. */
  page: route({ method: 'GET', path: '/unsubscribe/:token', access: 'public', params: unsubscribeParams, status: 302 }),
  oneClick: route({
    method: 'POST',
    path: '/unsubscribe/:token',
    access: 'public',
    audit: { kind: 'change', name: 'emailUnsubscribe.oneClick' },
    params: unsubscribeParams,
    body: oneClickBody,
    status: 204,
    reply: z.null(),
  }),
  reminders: route({
    method: 'GET',
    path: '/participant/reminders',
    access: 'participant',
    reply: participantReminders,
  }),
  resumeReminders: route({
    method: 'POST',
    path: '/participant/reminders/:projectId',
    access: 'participant',
    audit: { kind: 'change', name: 'emailUnsubscribe.resumeReminders' },
    params: reminderProjectParams,
    status: 204,
    reply: z.null(),
  }),
};
