import type { AuditChanges } from '../../db/schema/index.js';
import { changedFields, isCredentialField } from './audit-scope.service.js';

/** Credentials out, at every depth: a value kept in an event never holds one. */
function withoutCredentials(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  // A value nested past any the contract's bodies hold is sent by no screen: it is named, not
  // kept (thousands of levels passed the database's stack depth and the call answered 500).
  if (depth >= MAX_RECORDED_DEPTH) return NESTED_TOO_DEEP;
  if (Array.isArray(value)) return value.map((inner) => withoutCredentials(inner, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => !isCredentialField(key))
      .map(([key, inner]) => [key, withoutCredentials(inner, depth + 1)]),
  );
}

/** How deep a sent value is recorded, and what stands for what lies deeper. */
const MAX_RECORDED_DEPTH = 16;
const NESTED_TOO_DEEP = '(nested too deep to record)';

/**
 * The fields a call changed when its service did not say them: what it was sent (a download:
 * what it asked for). Sign-in and password calls keep nothing of what they were sent.
 */
export function sentFields(action: string, sent: unknown): AuditChanges {
  if (action.startsWith('auth.') || sent === null || typeof sent !== 'object' || Array.isArray(sent)) return {};
  return changedFields(null, withoutCredentials(sent) as Record<string, unknown>);
}
