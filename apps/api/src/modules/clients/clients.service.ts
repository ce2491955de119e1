import { CAP_ID_PATTERN, type CapStatus, type Client, type ClientListQuery, type Paged } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { visibleClientId } from '../../lib/access-control.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { readCsvRows, type ImportOutcome, type ImportRunContext } from '../imports/imports.service.js';
import type { ClientRow, ClientWithCount, ClientsRepository } from './clients.repository.js';
import { isUniqueViolation } from '../../db/constraint-violations.js';
import { auditClient } from '../audit/audit-scope.service.js';
import { clientFieldChanges, clientFieldsOf, newClientFields, type ClientInput } from './client-columns.js';

export function toClient(row: ClientWithCount): Client {
  return {
    id: row.id,
    ...clientFieldsOf(row),
    project_count: row.projectCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

// The rule of client isolation lives with access control, below every module (the audit
// trail's reads use it too); the modules that scope by client import it from here or there.
export { visibleClientId };

/** Throws NOT_FOUND unless the caller may see this client. */
function assertClientVisible(caller: AccessClaims, clientId: string): void {
  const scope = visibleClientId(caller);
  if (scope && scope !== clientId) throw new AppError('NOT_FOUND');
}

const CAP_HEADERS = ['cap_id', 'name', 'status'] as const;

export function createClientsService(deps: { clients: ClientsRepository; clock: Clock }) {
  const { clients } = deps;

  async function getVisible(caller: AccessClaims, id: string): Promise<ClientWithCount> {
    const row = await clients.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    assertClientVisible(caller, row.id);
    auditClient(row.id);
    return row;
  }

  async function refuseTakenCapId(capId: string | null | undefined, exceptId?: string): Promise<void> {
    if (capId && (await clients.capIdTaken(capId, exceptId))) throw new AppError('CLIENT_CAP_ID_ALREADY_EXISTS');
  }

  return {
    async list(caller: AccessClaims, query: ClientListQuery): Promise<Paged<Client>> {
      const page = await clients.list(query, visibleClientId(caller));
      return { ...page, items: page.items.map(toClient) };
    },

    async get(caller: AccessClaims, id: string): Promise<Client> {
      return toClient(await getVisible(caller, id));
    },

    exists: async (id: string): Promise<boolean> => (await clients.findById(id)) !== undefined,

    /** Whether a client exists and the caller may see it (for other features' checks). */
    async requireVisible(caller: AccessClaims, id: string): Promise<ClientRow> {
      return getVisible(caller, id);
    },

    async create(input: ClientInput): Promise<Client> {
      await refuseTakenCapId(input.cap_id);
      const row = await clients.insert(newClientFields(input)).catch(uniqueCapIdViolation);
      return toClient({ ...row, projectCount: 0 });
    },

    async update(caller: AccessClaims, id: string, input: ClientInput): Promise<Client> {
      await getVisible(caller, id);
      await refuseTakenCapId(input.cap_id, id);
      await clients.update(id, clientFieldChanges(input), deps.clock.now()).catch(uniqueCapIdViolation);
      return toClient(await getVisible(caller, id));
    },

    async remove(id: string): Promise<void> {
      const row = await clients.findById(id);
      if (!row) throw new AppError('NOT_FOUND');
      if (row.projectCount > 0) throw new AppError('CLIENT_HAS_PROJECTS');
      await clients.delete(id);
    },

    /**
     * A roster entry names an organisation and which client holds it: a client
     * administrator may look up only their own client's entry; any other is "not found".
     */
    async capStatus(caller: AccessClaims, capId: string): Promise<CapStatus> {
      const entry = await clients.findCap(capId);
      if (!entry) throw new AppError('CAP_CLIENT_NOT_FOUND');
      const scope = visibleClientId(caller);
      if (scope && entry.clientId !== scope) throw new AppError('CAP_CLIENT_NOT_FOUND');
      return {
        cap_id: entry.capId,
        name: entry.name,
        status: entry.status,
        client_id: entry.clientId,
        imported_at: entry.importedAt.toISOString(),
      };
    },

    /**
     * The CAP import runner: `cap_id,name,status`, all rows valid or nothing replaced. The
     * file is streamed like every import; once a row is wrong no more rows are kept.
     */
    async importCapRoster({ openStream, reportProgress }: ImportRunContext): Promise<ImportOutcome> {
      const roster: { capId: string; name: string; status: string }[] = [];
      const seen = new Map<string, number>();
      const read = await readCsvRows(openStream, CAP_HEADERS, (row, csv, errors) => {
        const { line } = row;
        const capId = csv.value(row, 'cap_id');
        const name = csv.value(row, 'name');
        const status = csv.value(row, 'status');
        if (!CAP_ID_PATTERN.test(capId)) {
          errors.add({ line, errorCode: 'INVALID_CAP_ID', message: `Line ${line}: "${capId}" is not a valid CAP ID.` });
        } else if (seen.has(capId.toLowerCase())) {
          errors.add({
            line,
            errorCode: 'IMPORT_VALIDATION_FAILED',
            message: `Line ${line}: CAP ID ${capId} is already on line ${seen.get(capId.toLowerCase())}.`,
          });
        } else {
          seen.set(capId.toLowerCase(), line);
        }
        if (!name) errors.add({ line, errorCode: 'FIELD_REQUIRED', message: `Line ${line}: name is required.` });
        if (!status) errors.add({ line, errorCode: 'FIELD_REQUIRED', message: `Line ${line}: status is required.` });
        if (errors.count === 0) roster.push({ capId, name, status });
      });
      if (read.errors.length) return read;
      await clients.replaceCapRoster(roster, deps.clock.now());
      await reportProgress(read.total, read.total);
      return read;
    },
  };
}
export type ClientsService = ReturnType<typeof createClientsService>;

/** Two requests racing with the same CAP ID: the unique index answers for the second. */
function uniqueCapIdViolation(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('CLIENT_CAP_ID_ALREADY_EXISTS');
  throw error;
}
