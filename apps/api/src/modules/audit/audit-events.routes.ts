import type { FastifyInstance } from 'fastify';
import { auditRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import { sendTable } from '../../lib/table-writer.js';
import type { AuditEventsService } from './audit-events.service.js';

const tags = ['Audit trail'];
const FILTERS =
  'Filters: `actor_id`, `action` (a route’s name such as `cases.update`, or a system action), `target_type` with ' +
  '`target_id`, `project_id`, and `from` (inclusive) / `to` (exclusive) as ISO moments with their offset. ' +
  'A client administrator reads only the events about their own client’s data; provider staff read all.';

export function registerAuditEventsRoutes(app: FastifyInstance, service: AuditEventsService): void {
  const implement = contractRoutes(app);

  implement(
    auditRoutes.list,
    {
      tags,
      summary: 'The audit trail, newest first (paged by cursor)',
      description:
        `${FILTERS} Each event carries its hash and the previous event’s, so a reader can check the chain; both are ` +
        'null for an event the sealer has not chained yet (it does within a second or so of the change). ' +
        'Pass `next_cursor` as `cursor` for the next, older page; it is null on the last. `limit`: 1–200, 50 unless given.',
    },
    async (request) => service.list(caller(request), request.query),
  );

  implement(
    auditRoutes.verify,
    {
      tags,
      summary: 'Check the audit trail’s hash chain',
      description:
        'Chains the events not sealed yet, then walks the chain from its first event: each must be the next in place, carry the previous event’s hash and ' +
        'hash to its own. `first_broken_id` names the first event where that fails (altered, inserted, or after a ' +
        'removed one); `checked` counts the events before it. `npm run audit:verify` does the same from a shell.',
    },
    async () => service.verify(),
  );

  implement(
    auditRoutes.export,
    {
      tags,
      summary: 'The audit trail as a CSV or XLSX file',
      description: `${FILTERS} Newest first, every matching event; the file is written as it is read.`,
    },
    async (request, reply) =>
      sendTable(reply, service.exportTable(caller(request), request.query), request.query.format),
  );
}
