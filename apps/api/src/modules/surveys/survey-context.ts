import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { visibleClientId } from '../clients/clients.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { createSurveyResponsesRepository } from './survey-responses.repository.js';
import { createSurveysRepository, type SurveysRepository } from './surveys.repository.js';

/** What the surveys service is built from. */
export interface SurveysDeps {
  db: Db;
  projects: Pick<ProjectsService, 'requireVisible'>;
  clock: Clock;
}

/**
 * What every part of the surveys service shares: its dependencies, the repositories, and a
 * template the caller's client may see (or NOT_FOUND).
 */
export function createSurveyContext(deps: SurveysDeps) {
  const surveys = createSurveysRepository(deps.db);
  const responses = createSurveyResponsesRepository(deps.db);

  async function visible(caller: AccessClaims, id: string, repository: SurveysRepository = surveys) {
    const row = await repository.findVisible(id, visibleClientId(caller));
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  return { deps, surveys, responses, visible };
}

export type SurveyContext = ReturnType<typeof createSurveyContext>;
