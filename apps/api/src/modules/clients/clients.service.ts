import type { Client, ClientListQuery, Paged } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ClientRow, ClientsRepository } from './clients.repository.js';

export function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    cap_id: row.capId,
    cap_status: row.capStatus,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The one rule of client isolation: a superadmin sees every client, a client
 * administrator only their own. Everything else about another client is "not found".
 */
export function visibleClientId(caller: AccessClaims): string | null {
  if (caller.role === 'SUPERADMIN') return null;
  if (!caller.clientId) throw new AppError('FORBIDDEN');
  return caller.clientId;
}

export function createClientsService(deps: { clients: ClientsRepository }) {
  return {
    async list(caller: AccessClaims, query: ClientListQuery): Promise<Paged<Client>> {
      const page = await deps.clients.list(query, visibleClientId(caller));
      return { ...page, items: page.items.map(toClient) };
    },
    async get(caller: AccessClaims, id: string): Promise<Client> {
      const scope = visibleClientId(caller);
      const row = await deps.clients.findById(id);
      if (!row || (scope && row.id !== scope)) throw new AppError('NOT_FOUND');
      return toClient(row);
    },
  };
}
export type ClientsService = ReturnType<typeof createClientsService>;
