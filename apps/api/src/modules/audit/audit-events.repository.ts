import { and, desc, eq, getTableColumns, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditChain, auditEvents, UNINDEXED_ACTION, users } from '../../db/schema/index.js';
import type { ChainedEventRow } from './audit-chain.js';

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

/**
 * The target and action indexes leave participants' answers out (schema/audit.ts). A filter that
 * no answer can match says so in the indexes' own words, a constant the planner matches to
 * their predicate (a parameter it could not): by an action other than answering, or by a
 * target other than an attempt. Answers themselves are found by reading newest first.
 */
const ANSWERS_LEFT_OUT = sql`${auditEvents.action} <> ${sql.raw(`'${UNINDEXED_ACTION}'`)}`;

function answersCannotMatch(f: AuditFilters): boolean {
  if (f.action !== undefined) return f.action !== UNINDEXED_ACTION;
  // (Answers written before migration 0035 name their attempt as a `case`: by an attempt's id, which
  // no case has, so a case's events are the same with or without them.)
  return f.targetType !== undefined && f.targetType !== 'attempt';
}

function conditions(f: AuditFilters): SQL | undefined {
  return and(
    answersCannotMatch(f) ? ANSWERS_LEFT_OUT : undefined,
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

export interface AccountRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
}

/** Reading the audit trail: newest first, by keyset on the chain's place (`seq`). */
export function createAuditEventsRepository(db: Executor) {
  return {
    /** Up to `limit` events older than `before` (the newest when none), newest first. */
    async page(filters: AuditFilters, before: number | undefined, limit: number): Promise<ChainedEventRow[]> {
      // Each with its link of the chain (none yet for an event not sealed yet).
      return db
        .select({ ...getTableColumns(auditEvents), prevHash: auditChain.prevHash, hash: auditChain.hash })
        .from(auditEvents)
        .leftJoin(auditChain, eq(auditChain.eventSeq, auditEvents.seq))
        .where(and(conditions(filters), before === undefined ? undefined : lt(auditEvents.seq, before)))
        .orderBy(desc(auditEvents.seq))
        .limit(limit);
    },

    /** The accounts of a page's events (actor_account.ts): by their ids and by their addresses. */
    async accounts(ids: readonly string[], emails: readonly string[]): Promise<AccountRow[]> {
      if (ids.length === 0 && emails.length === 0) return [];
      return db
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          role: users.role,
        })
        .from(users)
        .where(
          or(
            ids.length ? inArray(users.id, [...ids]) : undefined,
            emails.length ? inArray(users.email, [...emails]) : undefined,
          ),
        );
    },

    /** Every matching event, newest first, a page at a time (for a file written as it is read). */
    async *pages(filters: AuditFilters, size = 500): AsyncGenerator<ChainedEventRow[]> {
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
