import { vi } from 'vitest';
import type { RouteDefinition } from '@pss/contract';
import { call } from '../lib/api-client';
import { ApiError } from '../lib/api-error';

/**
 * The API, stubbed at the one door the screens call it through (`call`, lib/api-client.ts).
 * A test file mocks that module first, as the other component tests do:
 *
 *   vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
 *
 * then says what each route answers. A route with no answer stays unanswered (a section the
 * test is not about stays loading), so what a test checks is never an accident of a stub.
 */

/** What a call's second argument holds: its params, query and body. */
export interface CallArgs {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  file?: unknown;
}

/** A route's answer: a reply, or a function of the call's arguments (which may throw). */
export type Answer = unknown;

export function answerCalls(answers: ReadonlyArray<readonly [RouteDefinition, Answer]>): void {
  const byRoute = new Map<RouteDefinition, Answer>(answers);
  vi.mocked(call).mockImplementation(((route: RouteDefinition, args?: CallArgs) => {
    if (!byRoute.has(route)) return new Promise(() => {});
    const answer = byRoute.get(route);
    return Promise.resolve().then(() => (typeof answer === 'function' ? answer(args ?? {}) : answer));
  }) as never);
}

/** The arguments of every call made to `route`, oldest first. */
export function callsTo(route: RouteDefinition): CallArgs[] {
  return vi
    .mocked(call)
    .mock.calls.filter(([called]) => called === route)
    .map(([, args]) => (args ?? {}) as CallArgs);
}

/** An answer that fails as the server would: the catalogue code, and each refused field. */
export function refusal(status: number, errorCode: string, fields?: { field: string; errorCode: string }[]) {
  return () => {
    throw new ApiError(
      status,
      errorCode,
      undefined,
      fields && { fields: fields.map((f) => ({ ...f, message: f.errorCode })) },
    );
  };
}

/** One page of a list, as every list call answers. */
export function pageOf<Row>(items: Row[], total = items.length) {
  return { items, total, page: 1, limit: 25 };
}
