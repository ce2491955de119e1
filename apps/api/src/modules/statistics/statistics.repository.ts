import type { Db } from '../../db/client.js';
import { createConnectedAccountsRepository } from './connected-accounts.repository.js';
import { createItemAnalysisRepository } from './item-analysis.repository.js';
import { createKeptFiguresRepository } from './kept-figures.repository.js';
import { createParticipantStatisticsRepository } from './participant-statistics.repository.js';

export { CHART_DAYS, type SeasonFigures } from './season-figures-row.js';
export type { SeasonScope } from './season-work.js';

/**
 * The statistics of a project season: the season's figures and its question categories from
 * the kept counts (`kept-figures.repository.ts`; apps/api/test/season-figures-reference.ts
 * computes the same from the season's work, the reference they are tested against), its participants table
 * (`participant-statistics.repository.ts`), the client's connected accounts
 * (`connected-accounts.repository.ts`), and the item analysis of its cases
 * (`item-analysis.repository.ts`).
 */
export function createStatisticsRepository(db: Db) {
  return {
    ...createKeptFiguresRepository(db),
    ...createParticipantStatisticsRepository(db),
    ...createConnectedAccountsRepository(db),
    ...createItemAnalysisRepository(db),
  };
}

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
