import type { Db } from '../../db/client.js';
import { dayIn, type Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { SignedLinks } from '../../lib/signed-links.js';
import type { FileStorage } from '../../lib/storage.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ClinicianService } from '../clinician/clinician.service.js';
import type { CasesService } from '../cases/cases.service.js';
import { visibleClientId } from '../clients/clients.service.js';
import type { ResourceProcessing } from './resource-processing.js';
import { createResourcesRepository, type AttachmentScope, type ResourceRow } from './resources.repository.js';

/** What the resources service is built from. */
export interface ResourcesDeps {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  /** The schedule's time zone (SCHEDULE_TIME_ZONE): "today" is a day there. */
  timeZone: string;
  links: SignedLinks;
  linkTtlSeconds: number;
  processing: Pick<ResourceProcessing, 'wake'>;
  cases: Pick<CasesService, 'requireCase'>;
  attempts: Pick<ClinicianService, 'caseOfOwn'>;
}

/**
 * What every part of the resources service shares: its dependencies, the repository, today's
 * date, the caller's view of attachments, and finding a resource (or NOT_FOUND).
 */
export function createResourceContext(deps: ResourcesDeps) {
  const repository = createResourcesRepository(deps.db);
  const today = () => dayIn(deps.timeZone, deps.clock.now());
  const scopeOf = (caller: AccessClaims): AttachmentScope => ({ clientId: visibleClientId(caller) });

  async function require(id: string, scope: AttachmentScope = { clientId: null }): Promise<ResourceRow> {
    const row = await repository.findById(id, scope);
    if (!row) throw new AppError('NOT_FOUND', { message: 'The resource could not be found.' });
    return row;
  }

  return { deps, storage: deps.storage, repository, today, scopeOf, require };
}

export type ResourceContext = ReturnType<typeof createResourceContext>;
