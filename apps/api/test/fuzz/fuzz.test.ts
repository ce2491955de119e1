import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '@pss/contract';
import type { DeclaredRoute } from '../../src/lib/access-control.js';
import { createTestContext, type TestContext } from '../test-app.js';
import { buildWorld, type Caller, type World } from '../world.js';
import { problemWith, requestsFor } from './requests.js';

/**
 * Schema-driven fuzzing: every route gets FUZZ_RUNS hostile requests (200 on PGlite; 50 on
 * the PostgreSQL pass, which repeats them for the server's own errors),
 * sent as the most powerful caller it admits, on a populated database. None may answer
 * 5xx, and no answer may carry a stack trace or SQL. A failure prints the request and the
 * seed (`FUZZ_SEED=… npm run test:unit -- fuzz` replays it).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.TEST_DATABASE_URL ? 50 : 200));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let ctx: TestContext;
let world: World;
let realIds: string[];
let cases = 0;

beforeAll(async () => {
  ctx = await createTestContext({ env: { ENABLE_SUPERFAKE_LOGIN: 'true' } });
  world = await buildWorld(ctx);
  realIds = [
    world.clientA.id,
    world.clientB.id,
    world.project.id,
    world.otherProject.id,
    world.season.id,
    world.runningCase.id,
    world.draft.id,
    world.preview.id,
    world.cme.id,
    world.module.id,
    world.libraryCase.id,
    world.attempts.participant,
    world.users.participant.id,
    world.users.ownerAdmin.id,
    world.question.id,
    world.capId,
    world.summaries.draft,
    world.summaries.posted,
  ];
}, 120_000);
afterAll(() => {
  // eslint-disable-next-line no-console -- CI's log says how many cases ran
  console.log(`fuzz: ${cases} hostile requests over ${ctx?.app.declaredRoutes.length ?? 0} routes`);
  return ctx?.close();
});

/** The most powerful caller a route admits. */
function strongestCaller(route: DeclaredRoute): Caller {
  if (route.access === 'participant') return 'participant';
  if (route.access === 'public') return 'anonymous';
  return 'superadmin';
}

// Registered routes are known only once the app is built; the list of keys is fixed here
// by building nothing: each test looks its route up by key.
const routeKeys = await listRouteKeys();

describe('fuzzing every route from its schemas', () => {
  it.each(routeKeys)('%s', async (key) => {
    const route = ctx.app.declaredRoutes.find((r) => `${r.method} ${r.url}` === key)!;
    // A live session: an earlier route may have ended the kept one (a sign-out, an email change).
    const headers = await world.liveHeadersOf(strongestCaller(route));
    await fc.assert(
      fc.asyncProperty(requestsFor(route, realIds), async (request) => {
        cases += 1;
        const response = await ctx.app.inject({
          method: request.method as 'GET',
          url: `${request.url}`,
          headers: { ...headers, ...request.headers },
          payload: request.payload,
        });
        const problem = problemWith(response, isErrorCode);
        if (problem) throw new Error(`${request.label}\n→ ${problem}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

/** The routes the app registers, read from a short-lived app of its own. */
async function listRouteKeys(): Promise<string[]> {
  const probe = await createTestContext({ env: { ENABLE_SUPERFAKE_LOGIN: 'true' } });
  try {
    return probe.app.declaredRoutes.map((r) => `${r.method} ${r.url}`);
  } finally {
    await probe.close();
  }
}

// A sanity check of the harness itself: a route that fails is noticed.
describe('the fuzz harness', () => {
  it('reports an answer of 500 and a body with SQL', () => {
    const json = { 'content-type': 'application/json' };
    expect(problemWith({ statusCode: 500, body: '{}', headers: json }, isErrorCode)).toMatch(/500/);
    expect(
      problemWith(
        { statusCode: 400, body: '{"errorCode":"X","message":"syntax error at or near"}', headers: json },
        isErrorCode,
      ),
    ).toMatch(/SQL/);
    expect(
      problemWith(
        { statusCode: 400, body: '{"errorCode":"VALIDATION_ERROR","message":"x"}', headers: json },
        isErrorCode,
      ),
    ).toBeNull();
  });
});
