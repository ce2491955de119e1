import {
  auditCheckpointsPage,
  auditCheckpointsQuery,
  auditEventsPage,
  auditEventsQuery,
  auditExportQuery,
  auditVerdict,
} from '../audit.js';
import { reportContentTypes } from '../reports.js';
import { route } from '../route.js';

/** The chain as the offline check reads it: one JSON object a line. */
export const AUDIT_CHAIN_CONTENT_TYPE = 'application/x-ndjson';

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
  checkpoints: route({
    method: 'GET',
    path: '/audit-events/checkpoints',
    access: 'superadmin',
    query: auditCheckpointsQuery,
    reply: auditCheckpointsPage,
  }),
  chainExport: route({
    method: 'GET',
    path: '/audit-events/chain',
    access: 'superadmin',
    produces: [AUDIT_CHAIN_CONTENT_TYPE] as const,
  }),
  export: route({
    method: 'GET',
    path: '/audit-events/export',
    access: 'admin',
    audit: { kind: 'download', name: 'audit.export' },
    query: auditExportQuery,
    produces: [reportContentTypes.csv, reportContentTypes.xlsx] as const,
  }),
};
