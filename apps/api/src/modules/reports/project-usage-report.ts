import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { PAGE, personCells, personColumns, type ReportContext } from './report-context.js';
import { groupBy } from './report-rows.js';

/** The project usage report: a row per participant. */
export function projectUsageReport(context: ReportContext) {
  const { reports, projectFor, fileName, pagesOf } = context;

  return {
    /** Per participant: seasons, sign-ins, when last seen, and their cases begun and completed. */
    async projectUsage(caller: AccessClaims, projectId: string): Promise<Table> {
      const project = await projectFor(caller, projectId);
      await reports.syncAttempts(projectId);
      const seasonById = new Map(project.seasons.map((s, position) => [s.id, { ...s, position }]));
      const columns: Column[] = [
        ...personColumns,
        { header: 'Seasons', width: 24 },
        { header: 'Sign-ins', kind: 'number' },
        { header: 'First sign-in (UTC)', kind: 'datetime', width: 20 },
        { header: 'Last sign-in (UTC)', kind: 'datetime', width: 20 },
        { header: 'Last seen (UTC)', kind: 'datetime', width: 20 },
        { header: 'Cases assigned', kind: 'number' },
        { header: 'Cases started', kind: 'number' },
        { header: 'Cases completed', kind: 'number' },
        { header: 'Last answer (UTC)', kind: 'datetime', width: 20 },
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        const pages = pagesOf(projectId, { requirement: null, limit: PAGE }, async (people) => {
          const ids = people.map((p) => p.userId);
          const [assignments, attempts, usage] = await Promise.all([
            reports.assignmentsOf(projectId, ids, null),
            reports.attemptsOf(projectId, ids, null),
            reports.usageOf(projectId, ids),
          ]);
          return {
            assignments: groupBy(assignments, (a) => a.userId),
            attempts: groupBy(attempts, (a) => a.userId),
            usage: new Map(usage.map((u) => [u.userId, u])),
          };
        });
        for await (const { people, data } of pages) {
          yield people.map((person) => {
            const seasons = (data.assignments.get(person.userId) ?? [])
              .map((a) => seasonById.get(a.seasonId))
              .filter((s) => s !== undefined)
              .sort((a, b) => a.position - b.position)
              .map((s) => s.name);
            const attempts = data.attempts.get(person.userId) ?? [];
            const usage = data.usage.get(person.userId);
            return [
              ...personCells(person),
              seasons.join('; '),
              usage?.signIns ?? 0,
              usage?.firstSignIn ?? null,
              usage?.lastSignIn ?? null,
              usage?.lastSeen ?? null,
              attempts.length,
              attempts.filter((a) => a.status !== 'NOT_STARTED').length,
              attempts.filter((a) => a.status === 'COMPLETE').length,
              usage?.lastAnswer ?? null,
            ];
          });
        }
      }
      return { title: 'Project usage', fileName: fileName(project, 'project-usage'), columns, rows: rows() };
    },
  };
}
