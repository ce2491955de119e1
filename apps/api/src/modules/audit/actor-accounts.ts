import type { AuditEvent } from '@pss/contract';
import type { ChainedEventRow } from './audit-chain.js';
import type { AccountRow } from './audit-events.repository.js';

/**
 * Whose account an event is of, for the log to name (the wire's `account`): read beside the
 * events as they are recorded, never written into them — the trail is sealed. The actor's
 * account; for an event recorded before a session existed (`ANONYMOUS`: a sign-in's step, an
 * unlock, a password reset with a code), the account it names: its user target, else the
 * account of the address that was given. The app's own work (`SYSTEM`) is no one's.
 */
type AccountKey = { by: 'id'; id: string } | { by: 'email'; email: string } | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function accountKeyOf(row: ChainedEventRow): AccountKey {
  if (row.actorId) return { by: 'id', id: row.actorId };
  if (row.actorRole !== 'ANONYMOUS') return null;
  if (row.targetType === 'user' && row.targetId && UUID.test(row.targetId)) return { by: 'id', id: row.targetId };
  return row.actorEmail ? { by: 'email', email: row.actorEmail.toLowerCase() } : null;
}

/** What to look up for a page of events: the accounts' ids and addresses, each once. */
export function accountLookups(rows: readonly ChainedEventRow[]): { ids: string[]; emails: string[] } {
  const ids = new Set<string>();
  const emails = new Set<string>();
  for (const row of rows) {
    const key = accountKeyOf(row);
    if (key?.by === 'id') ids.add(key.id);
    else if (key?.by === 'email') emails.add(key.email);
  }
  return { ids: [...ids], emails: [...emails] };
}

/** Each event's account, from the accounts looked up (null where none is known). */
export function accountsOfEvents(
  rows: readonly ChainedEventRow[],
  found: readonly AccountRow[],
): AuditEvent['account'][] {
  const byId = new Map(found.map((a) => [a.id, a]));
  const byEmail = new Map(found.map((a) => [a.email, a]));
  return rows.map((row) => {
    const key = accountKeyOf(row);
    const account = key === null ? undefined : key.by === 'id' ? byId.get(key.id) : byEmail.get(key.email);
    return account
      ? {
          id: account.id,
          name: `${account.firstName} ${account.lastName}`.trim(),
          email: account.email,
          role: account.role,
        }
      : null;
  });
}
