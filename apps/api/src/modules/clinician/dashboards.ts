import type { Dashboard, DashboardCase, ParticipantProgress } from '@pss/contract';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { SeasonSummariesService } from '../season-summaries/season-summaries.service.js';
import type { UsersService } from '../users/users.service.js';
import type { createAttemptGuards } from './attempt-guards.js';
import type { AttemptRow, AttemptsRepository } from './attempts.repository.js';

type Caller = AccessClaims;

/**
 * The lists of a participant's cases: their own dashboard (every project's cases, what is
 * to do next, key takeaways, CMEs and posted summaries), and an administrator's view of one
 * participant's cases in a project. Both read the attempts as they are, after bringing them
 * up to date (`sync`), and show each case the same way.
 */
export function createDashboards(deps: {
  attempts: AttemptsRepository;
  projects: Pick<ProjectsService, 'requireVisible'>;
  users: Pick<UsersService, 'getParticipant'>;
  summaries: Pick<SeasonSummariesService, 'postedFor'>;
  guards: Pick<ReturnType<typeof createAttemptGuards>, 'isUnlocked' | 'isClosed'>;
  today: () => string;
}) {
  const { attempts, guards, today } = deps;

  function toDashboardCase(row: AttemptRow): DashboardCase {
    return {
      id: row.id,
      case_name: row.caseName,
      patient_name: row.patientName,
      season_name: row.seasonName,
      round_number: row.roundNumber,
      unlocks_on: row.unlocksOn,
      unlocked: guards.isUnlocked(row),
      closes_on: row.seasonEndsOn,
      closed: guards.isClosed(row),
      status: row.status,
      score: row.score,
    };
  }

  return {
    async dashboard(caller: Caller): Promise<Dashboard> {
      const user = await deps.users.getParticipant(caller.userId);
      await attempts.sync({ userId: caller.userId });
      const rows = await attempts.listForUser(caller.userId);
      const projectIds = [...new Set(rows.map((r) => r.projectId))];
      const [running, cmes, takeaways, summaries] = await Promise.all([
        attempts.runningRounds(projectIds, today()),
        attempts.cmesOf(projectIds),
        attempts.takeawaysOf(rows.filter((r) => r.status === 'COMPLETE').map((r) => r.caseId)),
        deps.summaries.postedFor(caller.userId),
      ]);
      return {
        user,
        projects: projectIds.map((projectId) => {
          const mine = rows.filter((r) => r.projectId === projectId).map((r) => ({ row: r, item: toDashboardCase(r) }));
          const unlocked = mine.filter((m) => m.item.unlocked);
          // A closed season's unfinished cases are not "to do": they can no longer be taken.
          const pending = unlocked.filter((m) => m.item.status !== 'COMPLETE' && !m.item.closed);
          const round = running.find((r) => r.project_id === projectId);
          const completed = mine.filter((m) => m.item.status === 'COMPLETE');
          return {
            project_id: projectId,
            project_name: mine[0]!.row.projectName,
            season_name: round?.season_name ?? null,
            round_number: round?.round_number ?? null,
            round_end_date: round?.end_date ?? null,
            cases_unlocked: unlocked.length,
            pending_case_count: pending.length,
            next_case: pending[0]?.item ?? null,
            cases: mine.map((m) => m.item),
            key_takeaways: completed
              .map((m) => ({
                case_name: m.row.caseName,
                items: takeaways.filter((k) => k.caseId === m.row.caseId).map((k) => k.text),
              }))
              .filter((k) => k.items.length > 0),
            cmes: cmes
              .filter((c) => c.projectId === projectId)
              .map((c) => ({
                id: c.id,
                min_cases: c.minCases,
                credits: Number(c.credits),
                moc: c.moc,
                completed_cases: completed.length,
              })),
            season_summaries: summaries.get(projectId) ?? [],
          };
        }),
      };
    },

    /** An administrator's view of one participant's cases in a project. */
    async progress(caller: Caller, userId: string, projectId: string): Promise<ParticipantProgress> {
      await deps.projects.requireVisible(caller, projectId);
      await attempts.sync({ projectId });
      const rows = await attempts.listForUser(userId, projectId);
      return {
        user_id: userId,
        project_id: projectId,
        completed: rows.filter((r) => r.status === 'COMPLETE').length,
        total: rows.length,
        cases: rows.map(toDashboardCase),
      };
    },
  };
}
