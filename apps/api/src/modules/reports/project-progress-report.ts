import type { ProjectProgressFilter } from '@pss/contract';
import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ReportContext } from './report-context.js';
import { percent } from './report-rows.js';

/** The project progress report: a row per case and season round. */
export function projectProgressReport(context: ReportContext) {
  const { reports, projectFor, seasonNamed, fileName } = context;

  return {
    /** Per case and season round: assigned, started, completed, completion rate and average score. */
    async projectProgress(
      caller: AccessClaims,
      projectId: string,
      filter: ProjectProgressFilter | undefined,
    ): Promise<Table> {
      const project = await projectFor(caller, projectId);
      const season = seasonNamed(project, filter?.season_name, 'querystring.filter.season_name');
      await reports.syncAttempts(projectId);
      const seasons = new Map(project.seasons.map((s) => [s.id, s]));
      const columns: Column[] = [
        { header: 'Season', width: 16 },
        { header: 'Round', kind: 'number' },
        { header: 'Round starts', kind: 'date', width: 12 },
        { header: 'Round ends', kind: 'date', width: 12 },
        { header: 'Case', width: 30 },
        { header: 'Participants assigned', kind: 'number' },
        { header: 'Started (incl. completed)', kind: 'number' },
        { header: 'Completed', kind: 'number' },
        { header: 'Completion rate (%)', kind: 'number' },
        { header: 'Average score', kind: 'number' },
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        const counted = await reports.caseProgress(projectId, {
          seasonId: season?.id ?? null,
          round: filter?.round_number ?? null,
        });
        yield counted.map((c) => {
          const s = seasons.get(c.seasonId);
          const round = s?.rounds.find((r) => r.number === c.roundNumber);
          return [
            s?.name ?? null,
            c.roundNumber,
            round?.start_date ?? null,
            round?.end_date ?? null,
            c.caseName,
            c.assigned,
            c.started,
            c.completed,
            percent(c.completed, c.assigned),
            c.averageScore === null ? null : Math.round(c.averageScore * 10) / 10,
          ];
        });
      }
      return {
        title: 'Project progress',
        fileName: fileName(project, 'project-progress', season),
        columns,
        rows: rows(),
      };
    },
  };
}
