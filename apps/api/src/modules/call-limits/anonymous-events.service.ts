import type { RouteDefinition } from '@pss/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { appendAuditEvents, type AuditEventInput } from '../audit/audit-scope.service.js';
import { createCallLimitsRepository, type AnonymousEventCountRow } from './call-limits.repository.js';
import { MINUTE_MS, minuteOf } from './minutes.js';

/** How long a minute's counts are kept once nothing more is owed to the trail. */
const KEEP_COUNTS_MS = 60 * MINUTE_MS;

const ANONYMOUS = { id: null, email: null, role: 'ANONYMOUS', clientId: null };

/** Refusals a caller can have again and again, whoever the call names: a limit's. */
const limitRefusals = new Set(['TOO_MANY_REQUESTS', 'ACCOUNT_LOCKED']);

/**
 * Whether an anonymous call's event is counted rather than written: anyone may call, so one
 * that names no one, or is refused by a limit, could otherwise add a row to the trail each
 * time. A refusal that names a member (a wrong code on their sign-in) is written: it needed
 * their password, and the lockout bounds it.
 */
function counted(definition: RouteDefinition, event: AuditEventInput): boolean {
  return definition.access === 'public' && (!event.actor.id || limitRefusals.has(event.outcome ?? ''));
}

/**
 * The audit trail's anonymous events: a call to an anonymous route that was refused, or that
 * let no one in (a sign-in link asked for, a passkey's options). The trail is append-only and
 * never pruned, so a caller must not be able to add a row to it per request: such an event is
 * counted per call, outcome, address and minute in an ordinary table (`anonymous_event_counts`),
 * and only the first of each minute is written, as it comes (who tried, when, why refused).
 * The rest of that minute reaches the trail as one summary event — the same call, outcome and
 * address, `changes.calls` going from the 1 written to the minute's count — once the minute is
 * over: with the key's next first event, or by the sweep (every minute, in every process; each
 * minute is taken by one). So a caller adds at most two rows a minute per call and outcome,
 * whatever it sends, and the trail still says how many.
 */
export function createAnonymousEvents(deps: {
  /** The database itself: an anonymous call runs in no transaction of its own. */
  db: Db;
  /** The app's clock: an event given no time is dated by it. */
  clock: Clock;
  /** Told when events were written, so that they are sealed soon. */
  written(): void;
}) {
  function summaryOf(row: AnonymousEventCountRow, at: Date): AuditEventInput {
    return {
      at,
      actor: ANONYMOUS,
      action: row.action,
      target: null,
      ip: row.ip,
      changes: {
        calls: { before: 1, after: row.count },
        minute: { before: null, after: row.minute.toISOString() },
      },
      outcome: row.outcome,
    };
  }

  /**
   * Records an anonymous event: written (with the summaries its key still owes for earlier
   * minutes) when it is the first of its minute, only counted otherwise.
   */
  async function record(event: AuditEventInput): Promise<void> {
    const at = event.at ?? deps.clock.now();
    const key = { action: event.action, outcome: event.outcome ?? 'success', ip: event.ip ?? '' };
    const minute = minuteOf(at);
    const wrote = await deps.db.transaction(async (tx) => {
      const counts = createCallLimitsRepository(tx);
      if ((await counts.countEvent(key, minute)) > 1) return false;
      const owed = await counts.takeUnsummed(minute, at, key);
      await appendAuditEvents(tx, [...owed.map((row) => summaryOf(row, at)), { ...event, at }]);
      return true;
    });
    if (wrote) deps.written();
  }

  return {
    record,

    /**
     * Writes the event of a sign-in, a code or a password call (`auth.*`, which runs in no
     * transaction), or counts it when it is an anonymous call's that anyone could repeat.
     */
    async write(definition: RouteDefinition, event: AuditEventInput): Promise<void> {
      if (counted(definition, event)) return record(event);
      await appendAuditEvents(deps.db, [event]);
      deps.written();
    },

    /**
     * Writes the summaries every minute before `now`'s owes, and removes the counts of an hour
     * ago that owe nothing. Answers how many summaries it wrote.
     */
    async sweep(now: Date): Promise<number> {
      const written = await deps.db.transaction(async (tx) => {
        const counts = createCallLimitsRepository(tx);
        const owed = await counts.takeUnsummed(minuteOf(now), now);
        await appendAuditEvents(
          tx,
          owed.map((row) => summaryOf(row, now)),
        );
        await counts.pruneEvents(new Date(minuteOf(now).getTime() - KEEP_COUNTS_MS));
        return owed.length;
      });
      if (written > 0) deps.written();
      return written;
    },
  };
}

export type AnonymousEvents = ReturnType<typeof createAnonymousEvents>;
