import type { AuditChanges } from '../../db/schema/index.js';
import { changedFields, withoutCredentials } from './audit-scope.service.js';

/**
 * The fields a call changed when its service did not say them: what it was sent (a download:
 * what it asked for). Sign-in and password calls keep nothing of what they were sent.
 */
export function sentFields(action: string, sent: unknown): AuditChanges {
  if (action.startsWith('auth.') || sent === null || typeof sent !== 'object' || Array.isArray(sent)) return {};
  return changedFields(null, withoutCredentials(sent) as Record<string, unknown>);
}
