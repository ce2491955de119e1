import { staff, superadmin, type MatrixRow } from './expectations.js';
import { get } from './requests.js';

/**
 * The audit trail: staff read it (each client administrator only their own client's events,
 * so client B's sees nothing of A's), provider staff check its chain, read its checkpoints and
 * take the whole chain for an offline check.
 */
export const auditRows: Record<string, MatrixRow> = {
  'GET /api/audit-events': {
    expect: staff(200),
    request: (w) => get(`/audit-events?project_id=${w.project.id}&limit=20`),
  },
  'GET /api/audit-events/verify': { expect: superadmin(200), request: () => get('/audit-events/verify') },
  'GET /api/audit-events/checkpoints': {
    expect: superadmin(200),
    request: () => get('/audit-events/checkpoints?limit=5'),
  },
  'GET /api/audit-events/chain': { expect: superadmin(200), request: () => get('/audit-events/chain') },
  'GET /api/audit-events/export': {
    expect: staff(200),
    request: (w) => get(`/audit-events/export?project_id=${w.project.id}&format=csv`),
  },
};
