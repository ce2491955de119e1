import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { AUDIT_CHAIN_CONTENT_TYPE, auditRoutes } from '@pss/contract';
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
        'Chains the events not sealed yet, then checks everything it can: each link is the next in place, carries the ' +
        'previous one’s hash and holds its event’s seal under the app’s key (`ALTERED`, `MISSING`); every event the ' +
        'sealer has passed is on the chain (`NOT_ON_CHAIN`); times never go back more than five minutes ' +
        '(`TIME_BACKWARDS`); the chain reaches the furthest checkpoint and holds what each saw (`TAIL_MISSING`); ' +
        'each checkpoint’s signature holds (`CHECKPOINT_FORGED`). `problems` names each (at most 100); ' +
        '`first_broken_id` the first event named; `checked` the links that hold before the first problem. A chain ' +
        'that holds has its head written as a checkpoint. `npm run audit:verify` does the same from a shell.',
    },
    async () => service.verify(),
  );

  implement(
    auditRoutes.checkpoints,
    {
      tags,
      summary: 'The audit chain’s checkpoints, newest first',
      description:
        'Every minute while the trail grows, and at each verify that holds, the app writes the chain’s head (`place`, ' +
        '`hash`, when) signed with its key (`signature`) to an append-only file under DATA_DIR and to its log: what ' +
        'shows the newest events were removed with their links (`TAIL_MISSING`). `chain` is the hash of the chain’s ' +
        'first link. An auditor may keep them and check an export against them offline. `limit`: 1–1000, 100 unless given.',
    },
    async (request) => service.checkpoints(request.query.limit),
  );

  implement(
    auditRoutes.chainExport,
    {
      tags,
      summary: 'The whole audit chain, for an offline check',
      description:
        'One JSON object a line (`application/x-ndjson`): a header, every link in place order with its event’s ' +
        'canonical content (the text its seal covers), then any event the sealer should have chained and did not. ' +
        '`npm run audit:verify -- --export FILE --checkpoints FILE` checks it with the signing key alone.',
    },
    async (_request, reply) =>
      reply
        .type(AUDIT_CHAIN_CONTENT_TYPE)
        .header('content-disposition', 'attachment; filename="audit-chain.jsonl"')
        .send(Readable.from(service.chainExport())),
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
