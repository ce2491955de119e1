import {
  auditActionName,
  type AuditCheckpoint,
  type AuditEvent,
  type AuditEventsQuery,
  type AuditExportQuery,
  type AuditVerdict,
} from '@pss/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { visibleClientId } from '../../lib/access-control.js';
import { sealAuditChain, type ChainedEventRow } from './audit-chain.js';
import type { CheckpointBook } from './audit-checkpoints.js';
import { chainExportLines } from './audit-chain-export.js';
import { verifyAuditChain } from './audit-verify.js';
import { accountLookups, accountsOfEvents } from './actor-accounts.js';
import { createAuditEventsRepository, type AuditFilters } from './audit-events.repository.js';

export function toAuditEvent(row: ChainedEventRow, account: AuditEvent['account'] = null): AuditEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorId, email: row.actorEmail, role: row.actorRole, client_id: row.actorClientId },
    action: row.action,
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    project_id: row.projectId,
    client_id: row.clientId,
    request_id: row.requestId,
    ip: row.ip,
    changes: row.changes,
    outcome: row.outcome,
    account,
    hash: row.hash,
    prev_hash: row.prevHash,
  };
}

function filtersOf(caller: AccessClaims, query: Omit<AuditExportQuery, 'format'>): AuditFilters {
  return {
    // A client administrator reads only what happened to their client's data.
    clientId: visibleClientId(caller),
    actorId: query.actor_id,
    action: query.action,
    targetType: query.target_type,
    targetId: query.target_id,
    projectId: query.project_id,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
  };
}

const exportColumns: Column[] = [
  { header: 'Time (UTC)', kind: 'datetime', width: 20 },
  { header: 'Actor email', width: 28 },
  { header: 'Actor role', width: 12 },
  { header: 'Action', width: 28 },
  // The code above is what the trail keeps; the words are the log's, for a reader of the file.
  { header: 'Action (words)', width: 34 },
  { header: 'Target type', width: 14 },
  { header: 'Target id', width: 38 },
  { header: 'Project id', width: 38 },
  { header: 'Client id', width: 38 },
  { header: 'Outcome', width: 16 },
  { header: 'Changes', width: 60 },
  { header: 'Address', width: 16 },
  { header: 'Request id', width: 24 },
  { header: 'Event id', width: 38 },
  { header: 'Hash', width: 66 },
];

function exportRow(row: ChainedEventRow): Cell[] {
  return [
    row.at,
    row.actorEmail,
    row.actorRole,
    row.action,
    auditActionName(row.action),
    row.targetType,
    row.targetId,
    row.projectId,
    row.clientId,
    row.outcome,
    Object.keys(row.changes).length ? JSON.stringify(row.changes) : '',
    row.ip,
    row.requestId,
    row.id,
    row.hash,
  ];
}

/**
 * The audit trail as staff read it: a page of events newest first (a client administrator's
 * only about their own client), the same events as a CSV or XLSX file written as they are
 * read, and the chain's check (provider staff).
 */
export function createAuditEventsService(deps: { db: Db; clock: Clock; key: string; checkpoints: CheckpointBook }) {
  const events = createAuditEventsRepository(deps.db);

  return {
    async list(
      caller: AccessClaims,
      query: AuditEventsQuery,
    ): Promise<{ items: AuditEvent[]; next_cursor: string | null }> {
      const before = query.cursor === undefined ? undefined : Number(query.cursor);
      // One more than asked: whether there is a next page, without counting.
      const rows = await events.page(filtersOf(caller, query), before, query.limit + 1);
      const items = rows.slice(0, query.limit);
      const more = rows.length > query.limit;
      // Who each event is of, named as their accounts read now (actor-accounts.ts).
      const lookups = accountLookups(items);
      const accounts = accountsOfEvents(items, await events.accounts(lookups.ids, lookups.emails));
      return {
        items: items.map((row, i) => toAuditEvent(row, accounts[i])),
        next_cursor: more ? String(items.at(-1)!.seq) : null,
      };
    },

    exportTable(caller: AccessClaims, query: AuditExportQuery): Table {
      const filters = filtersOf(caller, query);
      async function* rows(): AsyncGenerator<Cell[][]> {
        for await (const page of events.pages(filters)) yield page.map(exportRow);
      }
      return { title: 'Audit log', fileName: 'audit-log', columns: exportColumns, rows: rows() };
    },

    /**
     * The chain as it stands once what has committed is sealed (so the newest events are checked
     * too), against the checkpoints kept outside the database; a chain that holds gets its head
     * written as a new checkpoint.
     */
    async verify(): Promise<AuditVerdict> {
      await sealAuditChain(deps.db, deps.key);
      const verdict = await verifyAuditChain(deps.db, { key: deps.key, checkpoints: deps.checkpoints.read() });
      if (verdict.ok) await deps.checkpoints.record(deps.db, { always: true });
      return verdict;
    },

    async checkpoints(limit: number): Promise<{ items: AuditCheckpoint[] }> {
      return { items: await deps.checkpoints.list(deps.db, limit) };
    },

    /** The whole chain, then the events not on it yet, as the offline check reads them. */
    chainExport: () => chainExportLines(deps.db, deps.clock.now()),
  };
}

export type AuditEventsService = ReturnType<typeof createAuditEventsService>;
