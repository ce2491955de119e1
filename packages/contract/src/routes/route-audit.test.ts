import { describe, expect, it } from 'vitest';
import * as contract from '../index.js';
import type { RouteDefinition } from '../route.js';

/**
 * What each route declares the audit trail records of it (`audit`: its kind and name). A name is
 * an event's `action`, kept in the trail for good and read in words from audit-actions.ts
 * (apps/api/src/modules/audit/action-names.test.ts checks each has its words): so every call
 * that changes state or takes data away must declare one, and no two calls may share one.
 */

interface Entry {
  table: string;
  key: string;
  definition: RouteDefinition;
}

function routeTable(): Entry[] {
  const entries: Entry[] = [];
  const seen = new Set<RouteDefinition>();
  for (const [table, routes] of Object.entries(contract)) {
    if (!table.endsWith('Routes') || typeof routes !== 'object' || routes === null) continue;
    for (const [key, definition] of Object.entries(routes as Record<string, RouteDefinition>)) {
      // A route declared once and taken into a table (the first screens') is one route.
      if (seen.has(definition)) continue;
      seen.add(definition);
      entries.push({ table, key, definition });
    }
  }
  return entries;
}

const isFileOfRows = (definition: RouteDefinition) =>
  [definition.produces ?? []].flat().some((type) => type.startsWith('text/csv') || type.includes('spreadsheetml'));

describe('what the routes declare the audit trail records', () => {
  const entries = routeTable();

  it('is declared by every call that is not a GET, and every file of rows a GET answers', () => {
    // The tables were read: a change, a download and a read among them.
    expect(entries.map((entry) => entry.definition)).toEqual(
      expect.arrayContaining([contract.caseRoutes.update, contract.reportRoutes.projectUsage, contract.caseRoutes.get]),
    );
    const undeclared = entries
      .filter(({ definition }) => !definition.audit && (definition.method !== 'GET' || isFileOfRows(definition)))
      .map(({ table, key }) => `${table}.${key}`);
    expect(undeclared).toEqual([]);
  });

  it('gives each call a name of its own, ending in its key, one group a table', () => {
    const names = entries.flatMap(({ definition }) => (definition.audit ? [definition.audit.name] : []));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    const groups = new Map<string, Set<string>>();
    for (const { table, key, definition } of entries) {
      if (!definition.audit) continue;
      const [group, last, ...rest] = definition.audit.name.split('.');
      expect({ place: `${table}.${key}`, last, rest }).toEqual({ place: `${table}.${key}`, last: key, rest: [] });
      groups.set(table, (groups.get(table) ?? new Set()).add(group ?? ''));
    }
    for (const [table, named] of groups) expect([...named], table).toHaveLength(1);
  });

  it('records a download only of a GET, a change only of a call that is not, and every auth call as a sign-in’s or an account’s step', () => {
    for (const { table, key, definition } of entries) {
      const audit = definition.audit;
      if (!audit || audit.kind === 'none') continue;
      expect(definition.method === 'GET', `${table}.${key}`).toBe(audit.kind === 'download');
      // Their statements stand whatever the outcome (the attempts they count), and they keep
      // nothing of what they were sent: the server knows them by their group (`auth.`).
      expect(audit.name.startsWith('auth.'), `${table}.${key}`).toBe(
        audit.kind === 'sign-in' || audit.kind === 'account',
      );
    }
  });
});
