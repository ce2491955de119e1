import { CAP_ID_PATTERN, type CapStatus, type Client, type ClientListQuery, type Paged } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { parseCsv } from '../../lib/csv.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ImportOutcome, ImportRunContext } from '../imports/imports.service.js';
import type { ClientRow, ClientWithCount, ClientsRepository } from './clients.repository.js';

export function toClient(row: ClientWithCount): Client {
  return {
    id: row.id,
    name: row.name,
    cap_id: row.capId,
    cap_status: row.capStatus,
    project_count: row.projectCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The one rule of client isolation: a superadmin sees every client (null: no limit), a
 * client administrator only their own. Everything of another client is "not found".
 */
export function visibleClientId(caller: AccessClaims): string | null {
  if (caller.role === 'SUPERADMIN') return null;
  if (caller.role !== 'ADMIN' || !caller.clientId) throw new AppError('FORBIDDEN');
  return caller.clientId;
}

/** Throws NOT_FOUND unless the caller may see this client. */
function assertClientVisible(caller: AccessClaims, clientId: string): void {
  const scope = visibleClientId(caller);
  if (scope && scope !== clientId) throw new AppError('NOT_FOUND');
}

export interface ClientInput {
  name: string;
  cap_id?: string | null;
  cap_status?: string | null;
}

const CAP_HEADERS = ['cap_id', 'name', 'status'] as const;

export function createClientsService(deps: { clients: ClientsRepository; clock: Clock }) {
  const { clients } = deps;

  async function getVisible(caller: AccessClaims, id: string): Promise<ClientWithCount> {
    const row = await clients.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    assertClientVisible(caller, row.id);
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
      const row = await clients
        .insert({ name: input.name, capId: input.cap_id ?? null, capStatus: input.cap_status ?? null })
        .catch(uniqueCapIdViolation);
      return toClient({ ...row, projectCount: 0 });
    },

    async update(caller: AccessClaims, id: string, input: ClientInput): Promise<Client> {
      await getVisible(caller, id);
      await refuseTakenCapId(input.cap_id, id);
      await clients
        .update(
          id,
          { name: input.name, capId: input.cap_id ?? null, capStatus: input.cap_status ?? null },
          deps.clock.now(),
        )
        .catch(uniqueCapIdViolation);
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

    /** The CAP import runner: `cap_id,name,status`, all rows valid or nothing replaced. */
    async importCapRoster({ content, reportProgress }: ImportRunContext): Promise<ImportOutcome> {
      const parsed = parseCsv(await content(), CAP_HEADERS);
      if (!parsed.ok) {
        const errorCode =
          parsed.reason === 'missing-headers' || parsed.reason === 'malformed'
            ? 'CSV_HEADERS_OR_DELIMITER_INVALID'
            : 'IMPORT_VALIDATION_FAILED';
        return { total: 0, errors: [{ line: 1, errorCode, message: parsed.message }] };
      }
      const errors: ImportOutcome['errors'] = [];
      const seen = new Map<string, number>();
      for (const { line, values } of parsed.rows) {
        const capId = values.cap_id ?? '';
        if (!CAP_ID_PATTERN.test(capId)) {
          errors.push({
            line,
            errorCode: 'INVALID_CAP_ID',
            message: `Line ${line}: "${capId}" is not a valid CAP ID.`,
          });
        } else if (seen.has(capId.toLowerCase())) {
          errors.push({
            line,
            errorCode: 'IMPORT_VALIDATION_FAILED',
            message: `Line ${line}: CAP ID ${capId} is already on line ${seen.get(capId.toLowerCase())}.`,
          });
        } else {
          seen.set(capId.toLowerCase(), line);
        }
        if (!values.name)
          errors.push({ line, errorCode: 'FIELD_REQUIRED', message: `Line ${line}: name is required.` });
        if (!values.status)
          errors.push({ line, errorCode: 'FIELD_REQUIRED', message: `Line ${line}: status is required.` });
      }
      const total = parsed.rows.length;
      if (errors.length) return { total, errors };
      await clients.replaceCapRoster(
        parsed.rows.map(({ values }) => ({ capId: values.cap_id!, name: values.name!, status: values.status! })),
        deps.clock.now(),
      );
      await reportProgress(total, total);
      return { total, errors: [] };
    },
  };
}
export type ClientsService = ReturnType<typeof createClientsService>;

/** Two requests racing with the same CAP ID: the unique index answers for the second. */
function uniqueCapIdViolation(error: unknown): never {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  if (code === '23505') throw new AppError('CLIENT_CAP_ID_ALREADY_EXISTS');
  throw error;
}
