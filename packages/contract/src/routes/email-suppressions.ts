import { z } from 'zod';
import {
  addEmailSuppressionBody,
  emailEventProviderParams,
  emailEventsRecorded,
  emailSuppression,
  emailSuppressionListQuery,
  emailSuppressionPage,
  emailSuppressionParams,
} from '../email-suppressions.js';
import { route } from '../route.js';

/**
 * The suppression list, scoped like participants, and the providers' webhooks that fill it.
 * The webhooks are public: each provider's signature (or credentials) is the permission.
 */
export const emailSuppressionRoutes = {
  list: route({
    method: 'GET',
    path: '/email-suppressions',
    access: 'admin',
    query: emailSuppressionListQuery,
    reply: emailSuppressionPage,
  }),
  add: route({
    method: 'POST',
    path: '/email-suppressions',
    access: 'admin',
    audit: { kind: 'change', name: 'emailSuppressions.add' },
    body: addEmailSuppressionBody,
    status: 201,
    reply: emailSuppression,
  }),
  lift: route({
    method: 'DELETE',
    path: '/email-suppressions/:email',
    access: 'admin',
    audit: { kind: 'change', name: 'emailSuppressions.lift' },
    params: emailSuppressionParams,
    status: 204,
  }),
  providerEvents: route({
    method: 'POST',
    path: '/email-events/:provider',
    access: 'public',
    audit: { kind: 'change', name: 'emailSuppressions.providerEvents' },
    params: emailEventProviderParams,
    // Each provider's own shape (SNS JSON sent as text/plain, SendGrid's array, Mailgun's and
    // Postmark's objects): read and checked by the provider's own code, after its signature.
    body: z.unknown(),
    reply: emailEventsRecorded,
  }),
};
