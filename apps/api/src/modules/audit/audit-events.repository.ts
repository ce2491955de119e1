import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditEvents } from '../../db/schema/index.js';
import type { AuditEventRow } from './audit-chain.js';

/** The log's filters, in the repository's terms. */
export interface AuditFilters {
  actorId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  projectId?: string;
  from?: Date;
  to?: Date;
  /** A client administrator's client: only events about it. Null: every event (provider staff). */
  clientId: string | null;
}

function conditions(f: AuditFilters): SQL | undefined {
  return and(
    f.clientId === null ? undefined : eq(auditEvents.clientId, f.clientId),
    f.actorId === undefined ? undefined : eq(auditEvents.actorId, f.actorId),
    f.action === undefined ? undefined : eq(auditEvents.action, f.action),
    f.targetType === undefined ? undefined : eq(auditEvents.targetType, f.targetType),
    f.targetId === undefined ? undefined : eq(auditEvents.targetId, f.targetId),
    f.projectId === undefined ? undefined : eq(auditEvents.projectId, f.projectId),
    f.from === undefined ? undefined : gte(auditEvents.at, f.from),
    f.to === undefined ? undefined : lt(auditEvents.at, f.to),
  );
}

/** Reading the audit trail: newest first, by keyset on the chain's place (`seq`). */
export function createAuditEventsRepository(db: Executor) {
  return {
    /** Up to `limit` events older than `before` (the newest when none), newest first. */
    async page(filters: AuditFilters, before: number | undefined, limit: number): Promise<AuditEventRow[]> {
      return db
        .select()
        .from(auditEvents)
        .where(and(conditions(filters), before === undefined ? undefined : lt(auditEvents.seq, before)))
        .orderBy(desc(auditEvents.seq))
        .limit(limit);
    },

    /** Every matching event, newest first, a page at a time (for a file written as it is read). */
    async *pages(filters: AuditFilters, size = 500): AsyncGenerator<AuditEventRow[]> {
      let before: number | undefined;
      for (;;) {
        const rows = await this.page(filters, before, size);
        if (rows.length > 0) yield rows;
        if (rows.length < size) return;
        before = rows.at(-1)!.seq;
      }
    },
  };
}
