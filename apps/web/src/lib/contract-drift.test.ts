import { describe, expect, it } from 'vitest';
import { clientRoutes } from '@pss/contract';
import { call, pathOf } from './api-client';

/**
 * The web side of the route table, checked when this file compiles (`npm run typecheck`):
 * each line marked @ts-expect-error must stay an error, so a call that no longer matches
 * the contract — a path parameter renamed, a body field gone, a reply field gone — fails
 * type-checking here and wherever a screen makes it. Never run: it only has to compile.
 */
export function callsThatMustNotCompile() {
  // @ts-expect-error a path parameter the route does not have
  void call(clientRoutes.get, { params: { clientId: 'x' } });
  // @ts-expect-error a body field the contract does not take
  void call(clientRoutes.create, { body: { name: 'Lakeview', colour: 'red' } });
  // @ts-expect-error a body the call needs, left out
  void call(clientRoutes.update, { params: { id: 'x' } });
  // @ts-expect-error a field the reply does not have
  void call(clientRoutes.get, { params: { id: 'x' } }).then((client) => client.colour);
}

describe('the typed client', () => {
  it('fills a route’s path parameters from the contract’s path', () => {
    expect(pathOf(clientRoutes.capStatus, { id: 'CAP 1' })).toBe('/clients/cap/CAP%201/status');
  });
});
