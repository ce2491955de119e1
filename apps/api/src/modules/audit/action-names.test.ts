import { describe, expect, it } from 'vitest';
import * as contract from '@pss/contract';
import { auditActionName, auditActionNames, systemAuditActions, type RouteDefinition } from '@pss/contract';

/**
 * Every action the API can record has its words for the Audit Log (contract's
 * audit-actions.ts): each contract route the trail records (its declaration's `audit` says
 * what and under what code), and each of the app's own named actions. A new recorded route without
 * words fails here.
 */

function recordedRouteCodes(): string[] {
  const codes = new Set<string>();
  for (const [tableName, table] of Object.entries(contract)) {
    if (!tableName.endsWith('Routes') || typeof table !== 'object' || table === null) continue;
    for (const definition of Object.values(table as Record<string, RouteDefinition>)) {
      if (definition.audit && definition.audit.kind !== 'none') codes.add(definition.audit.name);
    }
  }
  return [...codes].sort();
}

describe('the audit trail’s actions in words', () => {
  const recordable = [...recordedRouteCodes(), ...systemAuditActions];

  it('name every action the API can record: each recorded route and each system action', () => {
    // The routes were read: sign-ins, changes and downloads among them.
    expect(recordable).toEqual(
      expect.arrayContaining(['auth.loginStaff', 'auth.mfaVerify', 'cases.update', 'audit.export', 'scheduler.send']),
    );
    const unnamed = recordable.filter((code) => !Object.hasOwn(auditActionNames, code));
    expect(unnamed).toEqual([]);
  });

  it('name no action the API cannot record, and each in words of its own', () => {
    const known = new Set(recordable);
    expect(Object.keys(auditActionNames).filter((code) => !known.has(code))).toEqual([]);
    const words = Object.values(auditActionNames);
    for (const text of words) expect(text).toMatch(/^[A-Z][^.]*[^.\s]$/);
    // Two actions never read alike.
    expect(words.filter((text, i) => words.indexOf(text) !== i)).toEqual([]);
  });

  it('reads a code in words, and an unknown code as it was recorded', () => {
    expect(auditActionName('auth.mfaVerify')).toBe('Verified second factor');
    expect(auditActionName('auth.loginStaff')).toBe('Signed in (staff)');
    expect(auditActionName('legacy.thing')).toBe('legacy.thing');
    expect(auditActionName('toString')).toBe('toString');
  });
});
