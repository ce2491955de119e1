import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('route matrix', () => {
  it('has a row for every registered route, and no row for a route that is gone', () => {
    const registered = ctx.app.declaredRoutes.map(routeKey);
    expect(registered.filter((key) => !routeMatrix[key])).toEqual([]);
    expect(Object.keys(routeMatrix).filter((key) => !registered.includes(key))).toEqual([]);
  });

  it('answers every caller of every route as the matrix says', async () => {
    const wrong: string[] = [];
    let cells = 0;
    for (const route of ctx.app.declaredRoutes) {
      const key = routeKey(route);
      const row = routeMatrix[key];
      if (!row) continue;
      // Refused callers first: they must change nothing the allowed ones then rely on.
      for (const caller of callers) {
        const request = await row.request(world, caller);
        const response = await ctx.app.inject({
          method: request.method,
          url: request.root ? request.url : `/api${request.url}`,
          headers: { ...(await world.headersOf(caller)), ...request.headers },
          payload: request.payload as string | object | Buffer | undefined,
        });
        cells += 1;
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
  }, 300_000);
});
