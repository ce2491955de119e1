import type { Db } from '../../db/client.js';
import { createConnectedAccountsRepository } from './connected-accounts.repository.js';
import { createParticipantStatisticsRepository } from './participant-statistics.repository.js';
import { createSeasonFiguresRepository } from './season-figures.repository.js';

export { CHART_DAYS, type SeasonFigures } from './season-figures.repository.js';
export type { SeasonScope } from './season-work.js';

/**
 * The statistics of a project season, each figure one SQL statement over the season's work
 * (`season-work.ts`: who counts, and which cases): the season's figures
 * (`season-figures.repository.ts`), its participants table
 * (`participant-statistics.repository.ts`), and the client's connected accounts
 * (`connected-accounts.repository.ts`).
 */
export function createStatisticsRepository(db: Db) {
  return {
    ...createSeasonFiguresRepository(db),
    ...createParticipantStatisticsRepository(db),
    ...createConnectedAccountsRepository(db),
  };
}

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
