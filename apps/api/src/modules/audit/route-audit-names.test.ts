import { describe, expect, it } from 'vitest';
import * as contract from '@pss/contract';
import type { RouteDefinition } from '@pss/contract';
import { auditKindOf, routeName, signInCalls } from './audited-routes.js';

/**
 * The names and kinds the routes declare (`audit` in the contract's route table) are the ones the
 * prefix table gave them: an event's `action` is stored data, and a call must keep its name.
 */
function tables(): [string, RouteDefinition][] {
  const found: [string, RouteDefinition][] = [];
  for (const [tableName, table] of Object.entries(contract)) {
    if (!tableName.endsWith('Routes') || typeof table !== 'object' || table === null) continue;
    for (const [key, definition] of Object.entries(table as Record<string, RouteDefinition>))
      found.push([`${tableName}.${key}`, definition]);
  }
  return found;
}

describe('the audit names declared on the routes', () => {
  it('are the names and kinds the prefix table gave', () => {
    const was: Record<string, string> = {};
    const is: Record<string, string> = {};
    for (const [place, definition] of tables()) {
      const name = routeName(definition);
      const kind = auditKindOf(definition);
      const old = kind === null ? null : kind === 'change' && signInCalls.has(name!) ? 'sign-in' : kind;
      was[place] = old === null ? '-' : `${old === 'change' && name!.startsWith('auth.') ? 'account' : old} ${name}`;
      const audit = definition.audit;
      is[place] = !audit || audit.kind === 'none' ? '-' : `${audit.kind} ${audit.name}`;
      if (audit) expect(audit.name, place).toBe(name);
    }
    expect(is).toEqual(was);
  });
});
