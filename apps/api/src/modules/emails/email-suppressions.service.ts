import type { EmailSuppressionReason, EmailSuppressionSource, Paged, SystemAuditAction } from '@pss/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { currentUnit } from '../../db/unit-of-work.js';
import { auditChanges, auditTarget } from '../audit/audit-scope.service.js';
import type { SystemRecorder } from '../audit/call-recorder.service.js';
import { visibleClientId } from '../clients/clients.service.js';
import type { EmailEvent } from './email-events.js';
import {
  createEmailSuppressionsRepository,
  SOFT_BOUNCES_IN_A_ROW,
  type SuppressionListQuery,
  type SuppressionRow,
} from './email-suppressions.repository.js';

export { SOFT_BOUNCES_IN_A_ROW } from './email-suppressions.repository.js';
export type { EmailEvent } from './email-events.js';

export interface SuppressInput {
  email: string;
  reason: EmailSuppressionReason;
  detail: string;
  source: EmailSuppressionSource;
  /** Null or left out: the whole address; set: that project's reminders only. */
  projectId?: string | null;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The audit trail's target type of a suppression (its id: the address). */
const TARGET = 'email-suppression';

/** What a suppression looks like in the list and in the audit trail. */
export function suppressionView(row: SuppressionRow) {
  return {
    email: row.email,
    reason: row.reason,
    detail: row.detail,
    at: row.at.toISOString(),
    source: row.source,
    project_id: row.projectId,
  };
}

/**
 * The suppression list and the bounces and complaints that fill it. Every reader of bounces
 * (the mailbox, the providers' webhooks) and the unsubscribe hand their findings here, so the
 * rules are in one place: a hard bounce or a complaint suppresses the address at once, soft
 * bounces after three in a row, an unsubscribe one project's reminders. Each change is
 * recorded in the audit trail: inside a call (a webhook, an administrator's lift, an
 * unsubscribe) as part of that call's event; otherwise (the mailbox reader) as the system.
 */
export function createEmailSuppressionsService(deps: { db: Db; clock: Clock; audit?: SystemRecorder }) {
  const repo = createEmailSuppressionsRepository(deps.db);

  /**
   * Runs a change and records what it did: in the event of the call whose transaction it runs
   * in (an administrator's lift), or as the system in its own (the mailbox reader, and a
   * provider's webhook: an anonymous call's events are counted a minute at a time, and each
   * suppression is to be seen on its own).
   */
  async function recorded<T>(
    action: SystemAuditAction,
    work: () => Promise<T>,
    said: (result: T) => { email: string; projectId: string | null; before: unknown; after: unknown } | null,
  ): Promise<T> {
    if (currentUnit()?.tx || !deps.audit) {
      const result = await work();
      const change = said(result);
      if (change) {
        auditTarget(TARGET, change.email);
        const key = `suppression of ${change.email}`;
        auditChanges({ [key]: change.before }, { [key]: change.after });
      }
      return result;
    }
    return deps.audit.system(action, work, (result) => {
      const change = said(result);
      return change
        ? {
            target: { type: TARGET, id: change.email },
            projectId: change.projectId,
            clientId: null,
            changes: { suppression: { before: change.before, after: change.after } },
          }
        : null;
    });
  }

  function addRow(input: SuppressInput): Promise<SuppressionRow | null> {
    return repo.insert({
      email: input.email.trim().toLowerCase(),
      projectId: input.projectId ?? null,
      reason: input.reason,
      detail: input.detail.slice(0, 1000),
      source: input.source,
      at: deps.clock.now(),
    });
  }

  const added = (row: SuppressionRow | null) =>
    row ? { email: row.email, projectId: row.projectId, before: null, after: suppressionView(row) } : null;

  async function suppress(input: SuppressInput): Promise<void> {
    await recorded('emails.suppress', () => addRow(input), added);
  }

  async function lift(input: { email: string; projectId?: string | null }): Promise<boolean> {
    const row = await recorded(
      'emails.liftSuppression',
      () => repo.remove(input.email.trim().toLowerCase(), input.projectId ?? null),
      (removed) =>
        removed
          ? { email: removed.email, projectId: removed.projectId, before: suppressionView(removed), after: null }
          : null,
    );
    return row !== null;
  }

  /** Keeps the event (once per source and id) and suppresses its address when the rules say. */
  async function recordEvent(event: EmailEvent): Promise<void> {
    const email = event.email.trim().toLowerCase();
    const outboxId = event.outboxId && uuidPattern.test(event.outboxId) ? event.outboxId.toLowerCase() : null;
    await recorded(
      'emails.bounce',
      async () => {
        const fresh = await repo.insertEvent({ ...event, email, outboxId, detail: event.detail.slice(0, 1000) });
        if (!fresh) return null;
        if (event.type === 'SOFT_BOUNCE' && (await repo.softBouncesInARow(email)) < SOFT_BOUNCES_IN_A_ROW) return null;
        const reason = event.type === 'SOFT_BOUNCE' ? 'SOFT_BOUNCES' : event.type;
        return addRow({ email, reason, detail: event.detail, source: event.source });
      },
      added,
    );
  }

  return {
    suppress,
    lift,
    recordEvent,

    /** The list, scoped like participants: a client's administrator sees their own participants' addresses. */
    async list(caller: AccessClaims, query: SuppressionListQuery): Promise<Paged<ReturnType<typeof suppressionView>>> {
      const page = await repo.list(visibleClientId(caller), query);
      return { ...page, items: page.items.map(suppressionView) };
    },

    /** An administrator lifts an address's whole-address suppression; NOT_FOUND when there is none they may see. */
    async liftByAdmin(caller: AccessClaims, address: string): Promise<void> {
      const email = address.trim().toLowerCase();
      const found = await repo.addressWide(email, visibleClientId(caller));
      if (!found || !(await lift({ email }))) throw new AppError('NOT_FOUND');
    },

    /** An administrator suppresses an address (MANUAL): any for provider staff, their own participants' for a client's. */
    async addByAdmin(caller: AccessClaims, input: { email: string; detail: string }) {
      const email = input.email.trim().toLowerCase();
      const clientId = visibleClientId(caller);
      if (clientId && !(await repo.isClientsParticipant(email, clientId))) throw new AppError('NOT_FOUND');
      await suppress({ email, reason: 'MANUAL', detail: input.detail, source: 'admin' });
      const row = await repo.addressWide(email, null);
      if (!row) throw new AppError('NOT_FOUND');
      return suppressionView(row);
    },
  };
}

export type EmailSuppressionsService = ReturnType<typeof createEmailSuppressionsService>;
