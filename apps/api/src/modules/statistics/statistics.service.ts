import type {
  CaseCompletion,
  CategoryUse,
  CompletionRate,
  CompletionsByDay,
  ConnectedAccount,
  ListQuery,
  Paged,
  ParticipantStatistics,
  ParticipationRate,
  RoundStatistics,
} from '@pss/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { summariseCategoryUse } from './category-use.js';
import { rescoreProject } from './scoring-update.js';
import { createStatisticsRepository, type SeasonScope } from './statistics.repository.js';

/** The completion chart's span (spec §9: the last two weeks). */
const CHART_DAYS = 14;

/**
 * A project season's statistics for whoever may see the project (another client's: 404).
 * `seasonName` names the season; one the project does not have is NOT_FOUND.
 */
export function createStatisticsService(deps: {
  db: Db;
  projects: Pick<ProjectsService, 'requireVisible' | 'seasons'>;
  clock: Clock;
}) {
  const statistics = createStatisticsRepository(deps.db);

  async function scope(caller: AccessClaims, projectId: string, seasonName: string): Promise<SeasonScope> {
    await deps.projects.requireVisible(caller, projectId);
    const season = (await deps.projects.seasons(caller, projectId)).find(
      (s) => s.name.toLowerCase() === seasonName.toLowerCase(),
    );
    if (!season) throw new AppError('NOT_FOUND', { message: `The project has no season "${seasonName}".` });
    return { projectId, seasonId: season.id, today: deps.clock.now().toISOString().slice(0, 10) };
  }

  return {
    async participationRate(caller: AccessClaims, projectId: string, seasonName: string): Promise<ParticipationRate> {
      return statistics.participation(await scope(caller, projectId, seasonName));
    },

    async completionRate(
      caller: AccessClaims,
      projectId: string,
      query: { seasonName: string; type: 'CASES' | 'PARTICIPANTS' },
    ): Promise<CompletionRate> {
      const s = await scope(caller, projectId, query.seasonName);
      return query.type === 'CASES' ? statistics.caseCompletion(s) : statistics.participantCompletion(s);
    },

    async byRound(caller: AccessClaims, projectId: string, seasonName: string): Promise<{ items: RoundStatistics[] }> {
      return { items: await statistics.byRound(await scope(caller, projectId, seasonName)) };
    },

    async caseCompletion(
      caller: AccessClaims,
      projectId: string,
      seasonName: string,
    ): Promise<{ items: CaseCompletion[] }> {
      return { items: await statistics.cases(await scope(caller, projectId, seasonName)) };
    },

    async completionsByDay(caller: AccessClaims, projectId: string, seasonName: string): Promise<CompletionsByDay> {
      return { items: await statistics.completionsByDay(await scope(caller, projectId, seasonName), CHART_DAYS) };
    },

    async categoryUse(caller: AccessClaims, projectId: string, seasonName: string): Promise<{ items: CategoryUse[] }> {
      const rows = await statistics.categoryUse(await scope(caller, projectId, seasonName));
      return { items: summariseCategoryUse(rows) };
    },

    async participants(
      caller: AccessClaims,
      projectId: string,
      query: ListQuery<'name' | 'email' | 'progress' | 'average_score', { progress?: string }> & { seasonName: string },
    ): Promise<Paged<ParticipantStatistics>> {
      const page = await statistics.participants(await scope(caller, projectId, query.seasonName), query);
      return { ...page, page: query.page, limit: query.limit };
    },

    async connectedAccounts(
      caller: AccessClaims,
      projectId: string,
      query: ListQuery<'last_sign_in' | 'name', Record<string, never>>,
    ): Promise<Paged<ConnectedAccount>> {
      const project = await deps.projects.requireVisible(caller, projectId);
      const { rows, total } = await statistics.connectedAccounts(project.clientId, query);
      return {
        items: rows.map(({ total: _total, ...row }) => ({ ...row, sign_ins: Number(row.sign_ins) })),
        total,
        page: query.page,
        limit: query.limit,
      };
    },

    async scoringUpdate(caller: AccessClaims, projectId: string): Promise<{ checked: number; updated: number }> {
      await deps.projects.requireVisible(caller, projectId);
      return rescoreProject(deps.db, projectId);
    },
  };
}

export type StatisticsService = ReturnType<typeof createStatisticsService>;
