import { sql } from 'drizzle-orm';
import * as contract from '@pss/contract';
import type { RouteDefinition } from '@pss/contract';
import type { LightMyRequestResponse } from 'fastify';
import { rowsOf, type Db } from '../../src/db/client.js';
import { removalsOfNoRow } from '../../src/modules/audit/row-changes.js';
import type { Caller, World } from '../world.js';

/**
 * What the audit trail must hold after each call of the route matrix: exactly one event for a
 * call that changed state or downloaded personal data, naming the route, the caller, and the
 * record; none for a refused call (but a refused sign-in or anonymous call: at most one, with its
 * refusal — one a minute per address and call). Also the credentials the walk used, which no
 * event may hold.
 */

interface EventRow {
  action: string;
  actor_id: string | null;
  actor_role: string;
  target_type: string | null;
  target_id: string | null;
  client_id: string | null;
  outcome: string;
  changes: Record<string, unknown>;
}

const eventsOf = async (db: Db, requestId: string) =>
  rowsOf<EventRow>(
    await db.execute(sql`
      select action, actor_id, actor_role, target_type, target_id, client_id, outcome, changes
      from audit_events where request_id = ${requestId}`),
  );

/** Whether an anonymous call's event of this route stands: a success that named no one. */
const anonymousEventOf = async (db: Db, action: string) =>
  rowsOf(
    await db.execute(sql`
      select 1 from audit_events where action = ${action} and outcome = 'success' and actor_id is null limit 1`),
  ).length > 0;

/** The values of a path's parameters in a request's URL (`/cases/:id` × `/api/cases/abc?x` → ['abc']). */
function paramValues(path: string, url: string): string[] {
  const pattern = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '([^/?]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  const match = new RegExp(`^/api${pattern.join('/')}(?:\\?|$)`).exec(url);
  return match ? match.slice(1).map(decodeURIComponent) : [];
}

/** The contract's routes by method and path (`POST /cases`, relative to the API's prefix). */
const byPlace = new Map<string, RouteDefinition>();
for (const [tableName, table] of Object.entries(contract)) {
  if (!tableName.endsWith('Routes') || typeof table !== 'object' || table === null) continue;
  for (const definition of Object.values(table as Record<string, RouteDefinition>))
    byPlace.set(`${definition.method} ${definition.path}`, definition);
}

/** A call that removes something: a DELETE, or a call named for removing (`cases.removeFromProject`). */
const isRemoval = (method: string, name: string) =>
  !removalsOfNoRow.has(name) && (method === 'DELETE' || /\.(remove|delete)/.test(name));

export function createAuditChecks(world: World) {
  const credentials = new Set<string>([world.password]);

  /** Everything in a call that is a credential: a bearer token, a password, a code, a link's token, a cookie. */
  function keepCredentials(headers: Record<string, string>, payload: unknown, response: LightMyRequestResponse) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    if (bearer) credentials.add(bearer);
    const secretKeys = /pass(word)?|token|code|secret/i;
    const visit = (value: unknown, key = ''): void => {
      // A catalogue error code (`errorCode: NOT_AUTHORIZED`) names a refusal, not a secret.
      const errorCode = /^[A-Z][A-Z_]+$/;
      if (typeof value === 'string' && secretKeys.test(key) && value.length >= 6 && !errorCode.test(value))
        credentials.add(value);
      // An array's items are what its key names (`recovery_codes: [...]`).
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) visit(v, Array.isArray(value) ? key : k);
    };
    visit(payload);
    try {
      visit(response.json());
    } catch {
      // Not JSON: a file, a redirect.
    }
    for (const cookie of response.cookies) if (cookie.value.length >= 6) credentials.add(cookie.value);
  }

  /** What is wrong with the events of one call (an empty list when it holds). */
  async function check(
    /** `route`: the registered pattern (`/api/cases/:id`); `url`: the URL called. */
    cell: { method: string; route: string; url: string; caller: Caller; requestId: string },
    response: LightMyRequestResponse,
  ): Promise<string[]> {
    const path = cell.route.replace(/^\/api/, '');
    const registered = byPlace.get(`${cell.method} ${path}`);
    // A route outside the contract's tables is recorded by no name: only a read may be one.
    if (!registered) return cell.method === 'GET' ? [] : [`${cell.method} ${path}: in none of the contract's tables`];
    // What the route declares the trail records of it (none: a read).
    const kind = registered.audit && registered.audit.kind !== 'none' ? registered.audit.kind : null;
    const name = registered.audit?.name ?? '';
    const events = await eventsOf(world.ctx.db, cell.requestId);
    const where = `${cell.method} ${path} as ${cell.caller}`;
    const ok = response.statusCode < 300;
    if (!kind) return events.length ? [`${where}: ${events.length} events for a call the trail does not record`] : [];
    if (!ok) {
      if (
        (kind === 'sign-in' || registered.access === 'public') &&
        events.every((e) => e.outcome !== 'success' && e.action === name) &&
        events.length <= 1
      )
        return [];
      return events.length ? [`${where}: refused (${response.statusCode}) but left ${events.length} events`] : [];
    }
    // An anonymous call that let no one in (a link asked for, a passkey's options) is written once
    // a minute per address, the rest counted (modules/call-limits/anonymous-events.service.ts): an earlier
    // call's event may stand for this one.
    if (registered.access === 'public' && events.length === 0 && (await anonymousEventOf(world.ctx.db, name)))
      return [];
    if (events.length !== 1) return [`${where}: ${events.length} events, not one`];
    const [event] = events as [EventRow];
    const problems: string[] = [];
    if (event.action !== name) problems.push(`action ${event.action}, not ${name}`);
    if (event.outcome !== 'success') problems.push(`outcome ${event.outcome}`);
    const callerId = cell.caller === 'anonymous' ? null : world.users[cell.caller].id;
    if (registered.access !== 'public' && event.actor_id !== callerId)
      problems.push(`actor ${event.actor_id}, not ${callerId}`);
    const params = paramValues(registered.path, cell.url);
    if (params.length && !(event.target_id && params.includes(event.target_id)))
      problems.push(`target ${event.target_type}:${event.target_id}, not one of ${params.join(', ')}`);
    if (registered.access !== 'public' && cell.caller === 'ownerAdmin' && event.client_id !== world.clientA.id)
      problems.push(`client ${event.client_id}, not client A's (the owner's own call)`);
    // A removal keeps what it removed: its fields before, nothing after (a sign-out removes no row).
    const removed = Object.values(event.changes) as { after?: unknown }[];
    if (isRemoval(registered.method, name) && (removed.length === 0 || removed.some((c) => c.after !== null)))
      problems.push(`a removal without the before state of what it removed: ${JSON.stringify(event.changes)}`);
    return problems.map((problem) => `${where}: ${problem}`);
  }

  return { keepCredentials, check, credentials };
}
