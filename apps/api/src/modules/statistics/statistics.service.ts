import type {
  CaseCompletion,
  CategoryUse,
  CompletionRate,
  CompletionsByDay,
  ItemAnalysisRow,
  ConnectedAccount,
  ListQuery,
  Paged,
  ParticipantStatistics,
  ParticipationRate,
  RoundStatistics,
} from '@pss/contract';
import { defaultSeason } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { dayIn, type Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { sharedResults } from '../../lib/shared-results.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { summariseCategoryUse } from './category-use.js';
import { itemAnalysisRows } from './item-analysis.js';
import { rescoreProject } from './scoring-update.js';
import { createStatisticsRepository, type SeasonFigures, type SeasonScope } from './statistics.repository.js';

/**
 * A project season's statistics for whoever may see the project (another client's: 404).
 * `seasonName` names the season; one the project does not have is NOT_FOUND.
 */
export function createStatisticsService(deps: {
  db: Db;
  projects: Pick<ProjectsService, 'requireVisible' | 'seasons'>;
  clock: Clock;
  /** The schedule's time zone (SCHEDULE_TIME_ZONE): days are counted there, as the emails' are. */
  timeZone: string;
  /** How long a figure is answered again (0: only calls made at the same time share one). */
  cacheSeconds: number;
}) {
  const statistics = createStatisticsRepository(deps.db);
  // A figure of a large season reads every one of its assigned cases (about a second at
  // 100,000 participants): the dashboard's calls, and the people looking at one season,
  // share each computation for a little while instead of repeating it.
  const shared = sharedResults({ ttlMs: deps.cacheSeconds * 1000, clock: deps.clock });
  const figure = <T>(name: string, s: SeasonScope, compute: () => Promise<T>, extra: unknown = null) =>
    shared.get(JSON.stringify([name, s.seasonId, s.today, extra]), compute);
  // The tiles and charts are read together, once for all of the dashboard's calls.
  const season = (s: SeasonScope): Promise<SeasonFigures> => figure('season', s, () => statistics.seasonFigures(s));

  /** The named season of the project, or (no name) its default season: the one running today, else the latest begun. */
  async function scope(caller: AccessClaims, projectId: string, seasonName: string | undefined): Promise<SeasonScope> {
    const today = dayIn(deps.timeZone, deps.clock.now());
    // The project's seasons are answered only to whoever may see it (another client's: 404).
    const seasons = await deps.projects.seasons(caller, projectId);
    const season =
      seasonName === undefined
        ? defaultSeason(seasons, today)
        : seasons.find((s) => s.name.toLowerCase() === seasonName.toLowerCase());
    if (!season) {
      const message =
        seasonName === undefined ? 'The project has no seasons.' : `The project has no season "${seasonName}".`;
      throw new AppError('NOT_FOUND', { message });
    }
    return { projectId, seasonId: season.id, today, timeZone: deps.timeZone };
  }

  return {
    async participationRate(caller: AccessClaims, projectId: string, seasonName: string): Promise<ParticipationRate> {
      const s = await scope(caller, projectId, seasonName);
      return (await season(s)).participation;
    },

    async completionRate(
      caller: AccessClaims,
      projectId: string,
      query: { seasonName: string; type: 'CASES' | 'PARTICIPANTS' },
    ): Promise<CompletionRate> {
      const s = await scope(caller, projectId, query.seasonName);
      const figures = await season(s);
      return query.type === 'CASES' ? figures.caseCompletion : figures.participantCompletion;
    },

    async byRound(caller: AccessClaims, projectId: string, seasonName: string): Promise<{ items: RoundStatistics[] }> {
      const s = await scope(caller, projectId, seasonName);
      return { items: (await season(s)).byRound };
    },

    async caseCompletion(
      caller: AccessClaims,
      projectId: string,
      seasonName: string,
    ): Promise<{ items: CaseCompletion[] }> {
      const s = await scope(caller, projectId, seasonName);
      return { items: (await season(s)).cases };
    },

    async completionsByDay(caller: AccessClaims, projectId: string, seasonName: string): Promise<CompletionsByDay> {
      const s = await scope(caller, projectId, seasonName);
      return { items: (await season(s)).completionsByDay };
    },

    async categoryUse(caller: AccessClaims, projectId: string, seasonName: string): Promise<{ items: CategoryUse[] }> {
      const s = await scope(caller, projectId, seasonName);
      const rows = await figure('categories', s, () => statistics.categoryUse(s));
      return { items: summariseCategoryUse(rows) };
    },

    /** Per question and choice of the season's published cases: difficulty, discrimination, picks, flags. */
    async itemAnalysis(
      caller: AccessClaims,
      projectId: string,
      seasonName: string,
    ): Promise<{ items: ItemAnalysisRow[] }> {
      const s = await scope(caller, projectId, seasonName);
      // Reads every completed attempt's answers: shared like the other figures.
      const items = await figure('item-analysis', s, async () =>
        itemAnalysisRows(await statistics.questionFigures(s), await statistics.choiceFigures(s)),
      );
      return { items };
    },

    async participants(
      caller: AccessClaims,
      projectId: string,
      query: ListQuery<'name' | 'email' | 'progress' | 'average_score', { progress?: string }> & {
        seasonName?: string;
      },
    ): Promise<Paged<ParticipantStatistics>> {
      const s = await scope(caller, projectId, query.seasonName);
      const page = await figure('participants', s, () => statistics.participants(s, query), query);
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
