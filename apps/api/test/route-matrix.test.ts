import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/db/client.js';
import { createAuditChecks } from './route-matrix/audit-expectations.js';
import { routeMatrix } from './route-matrix.js';
import { createTestContext, type TestContext } from './test-app.js';
import { buildWorld, callers, type World } from './world.js';

// Every route × every kind of caller, with real records: what the matrix says each gets.
let ctx: TestContext;
let world: World;
beforeAll(async () => {
  ctx = await createTestContext({ env: { ENABLE_SUPERFAKE_LOGIN: 'true', METRICS_TOKEN: MATRIX_METRICS_TOKEN } });
  world = await buildWorld(ctx);
}, 120_000);
afterAll(() => ctx?.close());

/** /metrics is served (METRICS_TOKEN set) so that the matrix sees users' tokens refused, not a 404. */
const MATRIX_METRICS_TOKEN = 'route-matrix-metrics-token';

const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

/** An event's timestamps and uuids, which hold runs of digits that name no credential. */
const timesAndIds =
  /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}(:?\d{2})?|Z)?|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

describe('route matrix', () => {
  it('has a row for every registered route, and no row for a route that is gone', () => {
    const registered = ctx.app.declaredRoutes.map(routeKey);
    expect(registered.filter((key) => !routeMatrix[key])).toEqual([]);
    expect(Object.keys(routeMatrix).filter((key) => !registered.includes(key))).toEqual([]);
  });

  it('answers every caller of every route as the matrix says, and records each call that changes or downloads once', async () => {
    const wrong: string[] = [];
    const audit = createAuditChecks(world);
    let cells = 0;
    for (const route of ctx.app.declaredRoutes) {
      const key = routeKey(route);
      const row = routeMatrix[key];
      if (!row) continue;
      // Refused callers first: they must change nothing the allowed ones then rely on.
      for (const caller of callers) {
        const request = await row.request(world, caller);
        const requestId = `matrix-${cells}-${caller}`;
        const url = request.root ? request.url : `/api${request.url}`;
        const headers = { ...(await world.headersOf(caller)), ...request.headers, 'x-request-id': requestId };
        const response = await ctx.app.inject({
          method: request.method,
          url,
          headers,
          payload: request.payload as string | object | Buffer | undefined,
        });
        cells += 1;
        audit.keepCredentials(headers, request.payload, response);
        wrong.push(
          ...(await audit.check({ method: route.method, route: route.url, url, caller, requestId }, response)),
        );
        const expected = row.expect[caller];
        const status = response.statusCode;
        if (status !== expected) {
          wrong.push(`${key} as ${caller}: expected ${expected}, got ${status} ${response.body.slice(0, 200)}`);
          continue;
        }
        // What another client's administrator is shown must hold nothing of client A's.
        // (Sign-in calls are left out: they answer whoever gives the credentials.)
        if (caller === 'otherAdmin' && status < 300 && route.access !== 'public') {
          const leaked = world.ownerIds.filter((id) => response.body.includes(id));
          if (leaked.length) wrong.push(`${key} as otherAdmin: shows client A's ${leaked.join(', ')}`);
        }
      }
    }
    // eslint-disable-next-line no-console -- CI's log says how many cells ran
    console.log(`route matrix: ${cells} route × caller cells over ${ctx.app.declaredRoutes.length} routes`);
    expect(wrong).toEqual([]);
    expect(cells).toBe(ctx.app.declaredRoutes.length * callers.length);

    // Client B's administrator reads none of client A's events: only their own client's.
    type Seen = { request_id: string | null; client_id: string | null };
    const seen: Seen[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const reply: { json(): unknown } = await ctx.app.inject({
        url: `/api/audit-events?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        headers: await world.headersOf('otherAdmin'),
      });
      const page = reply.json() as { items: Seen[]; next_cursor: string | null };
      seen.push(...page.items);
      cursor = page.next_cursor;
    }
    expect(seen.filter((event) => event.client_id !== world.clientB.id)).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);

    // No event holds a credential the walk used: a token, a password, a code, a cookie.
    const events = rowsOf<{ text: string }>(
      await ctx.db.execute(sql`select row_to_json(e)::text as text from audit_events e`),
    );
    // A code of digits alone (a six-digit sign-in code) is looked for as a number of its own, in
    // the events with their times and ids masked: a microsecond count or a run of an id's hex
    // digits can spell any six digits by chance, and once did.
    const masked = events.map((event) => event.text.replace(timesAndIds, '_'));
    const holds = (secret: string) =>
      /^\d+$/.test(secret)
        ? masked.some((text) => new RegExp(`(?<!\\d)${secret}(?!\\d)`).test(text))
        : events.some((event) => event.text.includes(secret));
    const found = [...audit.credentials].filter(holds);
    expect(found.map((secret) => `${secret.slice(0, 4)}… (${secret.length} characters)`)).toEqual([]);
    expect(audit.credentials.size).toBeGreaterThan(20);
  }, 300_000);
});
