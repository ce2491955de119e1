import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { RouteDefinition, SystemAuditAction } from '@pss/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { appendAuditEvents, type AuditEventInput } from './audit-chain.js';
import { currentCall, newCallRecord, runInCall, type AuditActor, type CallRecord } from './audit-scope.service.js';
import { signInCalls, statementRecordedCalls, type AuditKind } from './audited-routes.js';
import { aroundRow, ofMembersClient } from './row-changes.js';
import { sentFields } from './sent-fields.js';
import { createAnonymousEvents } from '../call-limits/anonymous-events.service.js';

/**
 * Records calls in the audit trail, one event each: a change in the change's own transaction
 * (the whole call runs in it: no change without its event, no event for a change that rolled
 * back), a download as it starts, a refused sign-in after its rollback.
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
  /** The database itself (not the call-scoped handle): the call's transaction is opened on it. */
  db: Db;
  /** The app's clock: an event's time is the app's time (a test's, a simulation's). */
  clock: Clock;
  /** Where work after a background commit that fails is told. */
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Told when events were written, so that they are sealed into the chain soon. */
  written(): void;
}

/**
 * What waited for a call's commit (worker wake-ups, file removals): the call answers once it is
 * done; a failure is logged, and the change stands.
 */
async function afterCommitted(record: CallRecord, log: Pick<FastifyBaseLogger, 'error'>): Promise<void> {
  await Promise.all(
    record.afterCommit.map((work) =>
      Promise.resolve()
        .then(work)
        .catch((error: unknown) => log.error({ err: error }, 'work after a commit failed')),
    ),
  );
}

export function createCallRecorder(deps: CallRecorderDeps) {
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

  /** Changes whose transaction is open. */
  const open = new WeakSet<FastifyRequest>();

  /**
   * Checked as a change's answer is about to go out (the route's onSend): a success must not
   * reach the caller before the change is committed. A handler that sends its answer itself
   * (`reply.send`) would do that — and waiting here would wait for ever, the handler waiting in
   * turn for its answer to be sent — so it is refused aloud; a handler returns its answer and
   * `contractRoutes` sends it after the commit.
   */
  function settled(request: FastifyRequest, status: number): void {
    if (open.has(request) && status < 400) {
      throw new Error(`${request.method} ${request.url}: answered before its change committed (return the answer)`);
    }
  }

  async function change<T>(
    name: string,
    definition: RouteDefinition,
    request: FastifyRequest,
    run: () => Promise<T>,
  ): Promise<T> {
    const record = newCallRecord(name, actorOf(request));
    open.add(request);
    try {
      const result = await deps.db.transaction(async (tx) => {
        record.tx = tx;
        const value = await aroundRow(tx, record, definition, request, () => runInCall(record, run));
        await appendAuditEvents(tx, [
          await ofMembersClient(tx, eventOf(record, request, definition, value, request.body)),
        ]);
        return value;
      });
      // Committed: what the work after it asks to run after the commit runs at once.
      record.tx = null;
      deps.written();
      await afterCommitted(record, request.log);
      return result;
    } catch (error) {
      await Promise.all(record.onRollback.map((undo) => undo()));
      throw error;
    } finally {
      record.tx = null;
      open.delete(request);
    }
  }

  /**
   * A sign-in, a sign-out, a password, a code or any anonymous change: its statements count
   * attempts that must stand whatever its outcome (a wrong password counts against the limit
   * though the call is refused), so it runs on the database itself, not in a transaction that a
   * refusal would roll back; its event is written as soon as it has answered, refused or not.
   */
  async function authentication<T>(
    name: string,
    definition: RouteDefinition,
    request: FastifyRequest,
    run: () => Promise<T>,
  ): Promise<T> {
    const record = newCallRecord(name, actorOf(request));
    let result: T;
    try {
      result = await aroundRow(deps.db, record, definition, request, () => runInCall(record, run));
    } catch (error) {
      // A sign-in's refusal is recorded, and any refusal of an anonymous call: anyone may make
      // one, so they are counted, one event a minute per address, call and refusal.
      if (signInCalls.has(name) || definition.access === 'public') {
        const refused = { ...record, actor: record.actor ?? triedBy(request), changes: {} };
        await authEvents.write(definition, eventOf(refused, request, definition, null, null, outcomeOf(error)));
      }
      throw error;
    }
    // An anonymous call that let no one in (a sign-in link asked for) is counted as refusals are.
    await authEvents.write(
      definition,
      await ofMembersClient(deps.db, eventOf(record, request, definition, result, request.body)),
    );
    return result;
  }

  /**
   * A hot call whose service writes its event in the statement of its change
   * (`takeCallEvent`); should it not (a path that changed nothing it records), nothing is
   * written for it either.
   */
  async function statementRecorded<T>(
    name: string,
    definition: RouteDefinition,
    request: FastifyRequest,
    run: () => Promise<T>,
  ): Promise<T> {
    const record = newCallRecord(name, actorOf(request));
    record.eventNow = () => eventOf(record, request, definition, null, request.body);
    const result = await runInCall(record, run);
    if (record.recorded) deps.written();
    return result;
  }

  /** Downloads under way: what their services said, kept for the event written as the file starts. */
  const downloads = new WeakMap<FastifyRequest, CallRecord>();

  async function download<T>(name: string, request: FastifyRequest, run: () => Promise<T>): Promise<T> {
    const record = newCallRecord(name, actorOf(request));
    downloads.set(request, record);
    return runInCall(record, run);
  }

  /**
   * A download's event, written as its file is about to be sent (the route's onSend): after
   * its handler has checked and read, before the caller has the data. A refusal writes none.
   */
  async function downloaded(definition: RouteDefinition, request: FastifyRequest, status: number): Promise<void> {
    const record = downloads.get(request);
    downloads.delete(request);
    if (!record || status >= 300) return;
    await appendAuditEvents(deps.db, [
      await ofMembersClient(deps.db, eventOf(record, request, definition, null, request.query)),
    ]);
    deps.written();
  }

  /**
   * The app's own work (the scheduler's sends, an import's end, a thumbnail drawn), recorded as
   * the system actor in the transaction of the change that `work` makes: `describe` says the
   * event from what `work` answered, or null when it changed nothing (a claim another process
   * had taken). Statements `work` makes through the services' handle run in that transaction.
   */
  async function system<T>(
    action: SystemAuditAction,
    work: () => Promise<T>,
    describe: (result: T) => Omit<AuditEventInput, 'actor' | 'action'> | null,
  ): Promise<T> {
    const within = currentCall()?.tx;
    if (within) {
      // Run inside a recorded call (a test send drained at once): its event joins that call's
      // transaction, which a second one on the one embedded connection would wait for forever.
      const value = await work();
      const event = describe(value);
      if (event) await appendAuditEvents(within, [{ at: deps.clock.now(), ...event, actor: SYSTEM_ACTOR, action }]);
      return value;
    }
    const record = newCallRecord(action, SYSTEM_ACTOR);
    let wrote = false;
    const result = await deps.db.transaction(async (tx) => {
      record.tx = tx;
      const value = await runInCall(record, work);
      const event = describe(value);
      if (event) await appendAuditEvents(tx, [{ at: deps.clock.now(), ...event, actor: SYSTEM_ACTOR, action }]);
      wrote = event !== null;
      return value;
    });
    record.tx = null;
    if (wrote) deps.written();
    await afterCommitted(record, deps.log);
    return result;
  }

  return {
    system,
    downloaded,
    settled,
    /** Runs a call's handler and records it as its kind says. */
    record<T>(
      kind: Exclude<AuditKind, null>,
      name: string,
      definition: RouteDefinition,
      request: FastifyRequest,
      run: () => Promise<T>,
    ): Promise<T> {
      if (kind === 'download') return download(name, request, run);
      if (statementRecordedCalls.has(name)) return statementRecorded(name, definition, request, run);
      return name.startsWith('auth.') || definition.access === 'public'
        ? authentication(name, definition, request, run)
        : change(name, definition, request, run);
    },
  };
}

export type CallRecorder = ReturnType<typeof createCallRecorder>;
