import { auditEventsPage, auditEventsQuery, auditExportQuery, auditVerdict } from '../audit.js';
import { reportContentTypes } from '../reports.js';
import { route } from '../route.js';

/** The audit trail: read by staff (a client administrator only their client's events), checked by provider staff. */
export const auditRoutes = {
  list: route({
    method: 'GET',
    path: '/audit-events',
    access: 'admin',
    query: auditEventsQuery,
    reply: auditEventsPage,
  }),
  verify: route({
    method: 'GET',
    path: '/audit-events/verify',
    access: 'superadmin',
    reply: auditVerdict,
  }),
  export: route({
    method: 'GET',
    path: '/audit-events/export',
    access: 'admin',
    query: auditExportQuery,
    produces: [reportContentTypes.csv, reportContentTypes.xlsx] as const,
  }),
};
