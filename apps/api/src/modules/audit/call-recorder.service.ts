import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteDefinition, SystemAuditAction } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { UnitKey, type Unit, type UnitOfWork } from '../../db/unit-of-work.js';
import type { Clock } from '../../lib/clock.js';
import { routeCallKey, type RouteCall } from '../../lib/contract-routes.js';
import { AppError } from '../../lib/errors.js';
import { appendAuditEvents, type AuditEventInput } from './audit-chain.js';
import { callRecordKey, newCallRecord, type AuditActor, type CallRecord } from './audit-scope.service.js';
import { keepRowChanges, ofMembersClient, rowBefore, type RowBefore } from './row-changes.js';
import { sentFields } from './sent-fields.js';
import { createAnonymousEvents } from '../call-limits/anonymous-events.service.js';

/**
 * Records calls in the audit trail, one event each, following the units of work the route
 * binding opens for them (db/unit-of-work.ts, lib/contract-routes.ts): a change's event in the
 * change's own transaction, before it commits (no change without its event, no event for a
 * change that rolled back); a sign-in's, an account's or an anonymous call's once it has
 * answered, a refusal too; a download's as its file starts.
 */

/** What a path's first segment names, as an event's target type. */
const targetTypes: Record<string, string> = {
  cases: 'case',
  previews: 'case-preview',
  projects: 'project',
  users: 'user',
  clients: 'client',
  cmes: 'cme',
  certificates: 'certificate',
  'module-library': 'module-library',
  'resource-library': 'resource',
  'survey-templates': 'survey-template',
  'season-summaries': 'season-summary',
  'disease-types': 'disease-type',
  'question-categories': 'question-category',
  reports: 'project',
  statistics: 'project',
};

/**
 * Where a group of routes names another record than its path's first segment says: a
 * participant's `/cases/:id/…` calls name their attempt at a case (`:id`), not a case.
 */
const groupTargetTypes: Record<string, Record<string, string>> = { attempts: { cases: 'attempt' } };

/** A route's target type and the path parameter that names its record, worked out once a route. */
const routeTargets = new WeakMap<RouteDefinition, { type: string; param: string | undefined }>();

function routeTarget(name: string, definition: RouteDefinition): { type: string; param: string | undefined } {
  let known = routeTargets.get(definition);
  if (!known) {
    const segment = definition.path.split('/')[1] ?? '';
    const group = name.split('.')[0] ?? '';
    known = {
      type: groupTargetTypes[group]?.[segment] ?? targetTypes[segment] ?? segment,
      param: /:(\w+)/.exec(definition.path)?.[1],
    };
    routeTargets.set(definition, known);
  }
  return known;
}

/**
 * The record a call names when its service said none: the first of its path's parameters
 * (`/cases/:id/status` → the case), or the record it created (`POST /cases` answers its id); a
 * sign-in's step, a password or a factor of one's own (`auth.*`): the member who acted.
 */
function defaultTarget(
  name: string,
  definition: RouteDefinition,
  params: unknown,
  result: unknown,
  actor: AuditActor,
): CallRecord['target'] {
  const { type, param } = routeTarget(name, definition);
  const values = (params ?? {}) as Record<string, unknown>;
  if (param && typeof values[param] === 'string') return { type, id: values[param] };
  const created = (result as { id?: unknown } | null | undefined)?.id;
  if (typeof created === 'string') return { type, id: created };
  return name.startsWith('auth.') && actor.id ? { type: 'user', id: actor.id } : null;
}

/** The app itself, acting on its own (a schedule, a queue). */
export const SYSTEM_ACTOR: AuditActor = { id: null, email: null, role: 'SYSTEM', clientId: null };

/** What the app's own work records through (see `system` below). */
export type SystemRecorder = Pick<CallRecorder, 'system'>;

function actorOf(request: FastifyRequest): AuditActor | null {
  const bearer = request.bearer;
  return bearer ? { id: bearer.id, email: bearer.email, role: bearer.role, clientId: bearer.clientId } : null;
}

/** Who a sign-in let in: the user its answer names. */
function signedIn(result: unknown): AuditActor | null {
  const user = (result as { user?: { id?: unknown; email?: unknown; role?: unknown; client_id?: unknown } } | null)
    ?.user;
  if (!user || typeof user.id !== 'string') return null;
  return {
    id: user.id,
    email: typeof user.email === 'string' ? user.email : null,
    // The role as the database and every other event spell it (a sign-in's answer has it in lower case).
    role: typeof user.role === 'string' ? user.role.toUpperCase() : 'USER',
    clientId: typeof user.client_id === 'string' ? user.client_id : null,
  };
}

/** Who tried a sign-in that was refused: the address they gave, if any (never what they gave with it). */
function triedBy(request: FastifyRequest): AuditActor {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return { id: null, email: typeof email === 'string' ? email.slice(0, 320) : null, role: 'ANONYMOUS', clientId: null };
}

function outcomeOf(error: unknown): string {
  if (error instanceof AppError) return error.code;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? `HTTP_${status}` : 'ERROR';
}

export interface CallRecorderDeps {
  /** The units of work the recorder follows, and opens for the app's own work. */
  units: UnitOfWork;
  /** The database itself (not the services' handle): what is written outside any unit. */
  db: Db;
  /** The app's clock: an event's time is the app's time (a test's, a simulation's). */
  clock: Clock;
  /** Where work after a background commit that fails is told. */
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Told when events were written, so that they are sealed into the chain soon. */
  written(): void;
}

/** The row a recorded call updates in place, as it was before its handler ran. */
const rowBeforeKey = new UnitKey<RowBefore>('audit: the row before');

/**
 * Follows the app's units of work, recording the route calls among them, and gives the app's
 * own work its recorder (`system`); registers on `app` the hook that records downloads.
 */
export function createCallRecorder(app: FastifyInstance, deps: CallRecorderDeps) {
  // An anonymous call's event: one a minute per address, call and outcome, with a count.
  const authEvents = createAnonymousEvents({ db: deps.db, clock: deps.clock, written: deps.written });
  function eventOf(
    record: CallRecord,
    request: FastifyRequest,
    definition: RouteDefinition,
    result: unknown,
    sent: unknown,
    outcome = 'success',
  ): AuditEventInput {
    const actor = record.actor ?? signedIn(result) ?? { id: null, email: null, role: 'ANONYMOUS', clientId: null };
    return {
      at: deps.clock.now(),
      actor,
      action: record.action,
      target: record.target ?? defaultTarget(record.action, definition, request.params, result, actor),
      projectId: record.projectId,
      // Whose data it was: as the call's checks said, else the caller's own client.
      clientId: record.clientId ?? actor.clientId,
      requestId: request.id,
      ip: request.ip,
      // What was sent, as far as the route reads it: a body sent to a route that takes none
      // (hostile, or deeply nested) is not the call's change.
      changes: record.changes ?? (definition.body ? sentFields(record.action, sent) : {}),
      outcome,
    };
  }

  /** Downloads under way: what their services said, kept for the event written as the file starts. */
  const downloads = new WeakMap<FastifyRequest, { call: RouteCall; record: CallRecord }>();

  /** The route call a unit runs and its record, when it is one. */
  const recorded = (unit: Unit) => {
    const call = unit.get(routeCallKey);
    const record = unit.get(callRecordKey);
    return call && record ? { call, record } : null;
  };

  deps.units.subscribe({
    /** A recorded call begins: its record, and the row it updates as it was. */
    async begin(unit, db) {
      const call = unit.get(routeCallKey);
      if (!call) return;
      const record = newCallRecord(call.audit.name, actorOf(call.request));
      unit.set(callRecordKey, record);
      if (call.audit.kind === 'download') downloads.set(call.request, { call, record });
      else if (call.eventInStatement) {
        record.eventNow = () => eventOf(record, call.request, call.definition, null, call.request.body);
      } else {
        const before = await rowBefore(db, call.definition, call.request.params, record.actor?.id);
        if (before) unit.set(rowBeforeKey, before);
      }
    },

    /**
     * The call's work is done: a change's event goes into its transaction; a call whose
     * statements stand on their own (a sign-in's or an account's step, an anonymous call) has
     * its event written now (an anonymous call that let no one in, such as a sign-in link asked
     * for, is counted as refusals are).
     */
    async beforeCommit(unit, db, result) {
      const found = recorded(unit);
      if (!found || found.call.audit.kind === 'download' || found.call.eventInStatement) return;
      const { call, record } = found;
      const before = unit.get(rowBeforeKey);
      if (before) await keepRowChanges(db, record, before, call.request.body);
      const event = await ofMembersClient(
        db,
        eventOf(record, call.request, call.definition, result, call.request.body),
      );
      if (call.transaction) await appendAuditEvents(db, [event]);
      else await authEvents.write(call.definition, event);
    },

    committed(unit) {
      const found = recorded(unit);
      if (found && (found.call.transaction || (found.call.eventInStatement && found.record.recorded))) deps.written();
    },

    /**
     * A refused call whose statements stood on their own: a sign-in's refusal is recorded, and
     * any refusal of an anonymous call (anyone may make one, so they are counted, one event a
     * minute per address, call and refusal).
     */
    async failed(unit, error) {
      const found = recorded(unit);
      if (!found || found.call.transaction || found.call.eventInStatement) return;
      const { call, record } = found;
      if (call.audit.kind === 'download' || (call.audit.kind !== 'sign-in' && call.definition.access !== 'public'))
        return;
      const refused = { ...record, actor: record.actor ?? triedBy(call.request), changes: {} };
      await authEvents.write(
        call.definition,
        eventOf(refused, call.request, call.definition, null, null, outcomeOf(error)),
      );
    },
  });

  /**
   * A download's event, written as its file is about to be sent: after its handler has checked
   * and read, before the caller has the data. A refusal writes none.
   */
  app.addHook('onSend', async (request, reply, payload) => {
    const download = downloads.get(request);
    if (!download) return payload;
    downloads.delete(request);
    if (reply.statusCode >= 300) return payload;
    const { call, record } = download;
    await appendAuditEvents(deps.db, [
      await ofMembersClient(deps.db, eventOf(record, request, call.definition, null, request.query)),
    ]);
    deps.written();
    return payload;
  });

  /**
   * The app's own work (the scheduler's sends, an import's end, a thumbnail drawn), recorded as
   * the system actor in the unit of work of the change that `work` makes: `describe` says the
   * event from what `work` answered, or null when it changed nothing (a claim another process
   * had taken). Statements `work` makes through the services' handle run in that unit's
   * transaction; run inside a unit that holds one (a test send drained at once, inside its
   * call), `work` and its event join it.
   */
  async function system<T>(
    action: SystemAuditAction,
    work: () => Promise<T>,
    describe: (result: T) => Omit<AuditEventInput, 'actor' | 'action'> | null,
  ): Promise<T> {
    let wrote = false;
    const result = await deps.units.run(
      async () => {
        const value = await work();
        const event = describe(value);
        if (event) {
          await appendAuditEvents(deps.units.db, [{ at: deps.clock.now(), ...event, actor: SYSTEM_ACTOR, action }]);
          wrote = true;
        }
        return value;
      },
      { transaction: true, log: deps.log },
    );
    if (wrote) deps.written();
    return result;
  }

  return { system };
}

export type CallRecorder = ReturnType<typeof createCallRecorder>;
