import type { ParticipantsProgressFilter } from '@pss/contract';
import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { PAGE, personCells, personColumns, type ReportContext } from './report-context.js';
import {
  averageScore,
  completedScores,
  groupBy,
  lastActivity,
  progressLabels,
  progressOf,
  roundProgressLabel,
  roundsText,
} from './report-rows.js';

/**
 * Per participant and season they are assigned to: their rounds, and per round and overall
 * their progress, cases completed and assigned, and average score, narrowed by round and
 * progress when a filter is given. The report and its subset are made alike; they differ in
 * file name and title.
 */
export function participantsProgressReport(
  { reports, today, projectFor, seasonNamed, fileName, pagesOf }: ReportContext,
  kind: 'participants-progress' | 'participants-progress-subset',
  title: string,
): (
  caller: AccessClaims,
  projectId: string,
  query: { seasonName?: string | undefined; filter?: ParticipantsProgressFilter | undefined; search?: string },
) => Promise<Table> {
  return async (caller, projectId, query) => {
    const project = await projectFor(caller, projectId);
    const season = seasonNamed(project, query.seasonName, 'querystring.seasonName');
    const filter = query.filter ?? {};
    await reports.syncAttempts(projectId);
    const seasons = season ? [season] : project.seasons;
    const seasonById = new Map(seasons.map((s, position) => [s.id, { ...s, position }]));
    const roundCount = Math.max(1, ...seasons.map((s) => s.rounds.length));
    const roundNumbers = Array.from({ length: roundCount }, (_, i) => i + 1);
    const day = today();
    const columns: Column[] = [
      ...personColumns,
      { header: 'Season', width: 16 },
      { header: 'Rounds assigned' },
      { header: 'Start date', kind: 'date', width: 11 },
      ...roundNumbers.flatMap((n): Column[] => [
        { header: `Round ${n} progress`, width: 16 },
        { header: `Round ${n} cases completed`, kind: 'number' },
        { header: `Round ${n} cases assigned`, kind: 'number' },
        { header: `Round ${n} average score`, kind: 'number' },
      ]),
      { header: 'Cases assigned', kind: 'number' },
      { header: 'Cases completed', kind: 'number' },
      { header: 'Overall progress', width: 16 },
      { header: 'Average score', kind: 'number' },
      { header: 'Last activity (UTC)', kind: 'datetime', width: 20 },
    ];
    const seasonId = season?.id ?? null;
    async function* rows(): AsyncGenerator<Cell[][]> {
      const pages = pagesOf(
        projectId,
        { search: query.search, requirement: { assignedIn: seasonId }, limit: PAGE },
        async (people) => {
          const ids = people.map((p) => p.userId);
          const [assignments, attempts] = await Promise.all([
            reports.assignmentsOf(projectId, ids, seasonId),
            reports.attemptsOf(projectId, ids, seasonId),
          ]);
          return { assignments: groupBy(assignments, (a) => a.userId), attempts: groupBy(attempts, (a) => a.userId) };
        },
      );
      for await (const { people, data } of pages) {
        const page: Cell[][] = [];
        for (const person of people) {
          const assignments = (data.assignments.get(person.userId) ?? [])
            .filter((a) => seasonById.has(a.seasonId))
            .sort((a, b) => seasonById.get(a.seasonId)!.position - seasonById.get(b.seasonId)!.position);
          const theirs = data.attempts.get(person.userId) ?? [];
          for (const assignment of assignments) {
            const s = seasonById.get(assignment.seasonId)!;
            const inSeason = theirs.filter((a) => a.seasonId === s.id);
            const assignedTo = (n: number) => n >= assignment.firstRound && n <= assignment.lastRound;
            if (filter.round_number !== undefined && !assignedTo(filter.round_number)) continue;
            const judged = filter.round_number
              ? inSeason.filter((a) => a.roundNumber === filter.round_number)
              : inSeason;
            if (filter.progress && progressOf(judged) !== filter.progress) continue;
            const perRound = roundNumbers.flatMap((n): Cell[] => {
              if (!s.rounds.some((r) => r.number === n)) return [null, null, null, null];
              if (!assignedTo(n)) return [roundProgressLabel(false, [], day), null, null, null];
              const inRound = inSeason.filter((a) => a.roundNumber === n);
              return [
                roundProgressLabel(true, inRound, day),
                inRound.filter((a) => a.status === 'COMPLETE').length,
                inRound.length,
                averageScore(completedScores(inRound)),
              ];
            });
            page.push([
              ...personCells(person),
              s.name,
              roundsText(assignment.firstRound, assignment.lastRound),
              assignment.startDate,
              ...perRound,
              inSeason.length,
              inSeason.filter((a) => a.status === 'COMPLETE').length,
              progressLabels[progressOf(inSeason)],
              averageScore(completedScores(inSeason)),
              lastActivity(inSeason),
            ]);
          }
        }
        yield page;
      }
    }
    return { title, fileName: fileName(project, kind, season), columns, rows: rows() };
  };
}
