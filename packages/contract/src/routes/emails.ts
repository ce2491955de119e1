import { idParams } from '../clients.js';
import {
  emailDeliveryListQuery,
  emailDeliveryPage,
  emailPreview,
  emailPreviewBody,
  emailSchedule,
  emailCalendar,
  emailCalendarQuery,
  emailScheduleQuery,
  emailsChanged,
  emailsQueued,
  emailsSent,
  sendEmailPreview,
  emailStatusBody,
  emailTemplate,
  emailTemplateList,
  saveEmailBody,
  seasonNameBody,
  seasonNameQuery,
  sendEmailBody,
  sendTestEmailBody,
} from '../emails.js';
import { route } from '../route.js';

/**
 * A project's emails. In `/projects/{id}/email`, `email-status`, `season-email` and
 * `season-email-status` the id is the email template's (the specification's `{emailId}`).
 */
export const emailRoutes = {
  list: route({
    method: 'GET',
    path: '/projects/:id/emails-list',
    access: 'admin',
    params: idParams,
    reply: emailTemplateList,
  }),
  listForSeason: route({
    method: 'GET',
    path: '/projects/:id/season-emails-list',
    access: 'admin',
    params: idParams,
    query: seasonNameQuery,
    reply: emailTemplateList,
  }),
  save: route({
    method: 'POST',
    path: '/projects/:id/email',
    access: 'admin',
    audit: { kind: 'change', name: 'emails.save' },
    params: idParams,
    body: saveEmailBody,
    reply: emailTemplate,
  }),
  setStatus: route({
    method: 'POST',
    path: '/projects/:id/email-status',
    access: 'admin',
    audit: { kind: 'change', name: 'emails.setStatus' },
    params: idParams,
    body: emailStatusBody,
    reply: emailTemplate,
  }),
  saveSeasonEmail: route({
    method: 'POST',
    path: '/projects/:id/season-email',
    access: 'admin',
    audit: { kind: 'change', name: 'emails.saveSeasonEmail' },
    params: idParams,
    body: saveEmailBody,
    reply: emailTemplate,
  }),
  setSeasonEmailStatus: route({
    method: 'POST',
    path: '/projects/:id/season-email-status',
    access: 'admin',
    audit: { kind: 'change', name: 'emails.setSeasonEmailStatus' },
    params: idParams,
    body: emailStatusBody,
    reply: emailTemplate,
  }),
  disableAll: route({
    method: 'POST',
    path: '/projects/:id/disable-emails',
    access: 'admin',
    audit: { kind: 'change', name: 'emails.disableAll' },
    params: idParams,
    reply: emailsChanged,
  }),
  /**
   * The season is named in the query, `?seasonName=` (the specification's form), or in a JSON
   * body `{ "seasonName" }`; one of them is required (REQUIRED_PARAMETER_MISSING), and both
   * must name the same season.
   */
  disableSeason: route({
    method: 'POST',
    path: '/projects/:id/disable-season-emails',
    access: 'admin',
    audit: { kind: 'change', name: 'emails.disableSeason' },
    params: idParams,
    query: seasonNameQuery.partial(),
    body: seasonNameBody.nullish(),
    reply: emailsChanged,
  }),
};

/** Sending a project's emails, their preview, the delivery log and the dry run of the schedule. */
export const emailSendingRoutes = {
  sendTest: route({
    method: 'POST',
    path: '/projects/:id/send-email-test',
    access: 'admin',
    audit: { kind: 'change', name: 'emailSending.sendTest' },
    params: idParams,
    body: sendTestEmailBody,
    status: 202,
    reply: emailsQueued,
  }),
  send: route({
    method: 'POST',
    path: '/projects/:id/send-email',
    access: 'admin',
    audit: { kind: 'change', name: 'emailSending.send' },
    params: idParams,
    body: sendEmailBody,
    status: 202,
    reply: emailsSent,
  }),
  /** Who a send by hand would go to and who it would skip and why; nothing is queued. */
  sendPreview: route({
    method: 'POST',
    path: '/projects/:id/send-email/preview',
    access: 'admin',
    audit: { kind: 'change', name: 'emailSending.sendPreview' },
    params: idParams,
    body: sendEmailBody,
    reply: sendEmailPreview,
  }),
  preview: route({
    method: 'POST',
    path: '/projects/:id/email-preview',
    access: 'admin',
    audit: { kind: 'none', name: 'emailSending.preview' },
    params: idParams,
    body: emailPreviewBody,
    reply: emailPreview,
  }),
  deliveries: route({
    method: 'GET',
    path: '/projects/:id/email-deliveries',
    access: 'admin',
    params: idParams,
    query: emailDeliveryListQuery,
    reply: emailDeliveryPage,
  }),
  schedule: route({
    method: 'GET',
    path: '/projects/:id/email-schedule',
    access: 'admin',
    params: idParams,
    query: emailScheduleQuery,
    reply: emailSchedule,
  }),
  calendar: route({
    method: 'GET',
    path: '/projects/:id/email-calendar',
    access: 'admin',
    params: idParams,
    query: emailCalendarQuery,
    reply: emailCalendar,
  }),
};
