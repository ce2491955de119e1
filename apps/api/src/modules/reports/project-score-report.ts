import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { personCells, personColumns, SCORE_PAGE, type ReportContext } from './report-context.js';
import { answerBreakdown, averageScore, completedScores, groupBy, percent, statusLabels } from './report-rows.js';
import type { AttemptRow } from './reports.repository.js';

/** The project score report: a row per participant and case, scored by the one scoring rule. */
export function projectScoreReport(context: ReportContext) {
  const { reports, projectFor, seasonNamed, fileName, pagesOf } = context;

  return {
    /**
     * Per participant and case: status, score, the change from their Round 1 average, and
     * under-use (necessary choices missed) and over-use (unnecessary choices chosen) in
     * total and per question category, from their answers by the one scoring rule.
     */
    async projectScore(caller: AccessClaims, projectId: string, seasonName: string | undefined): Promise<Table> {
      const project = await projectFor(caller, projectId);
      const season = seasonNamed(project, seasonName, 'querystring.seasonName');
      await reports.syncAttempts(projectId);
      const caseRows = await reports.casesOf(projectId);
      const caseById = new Map(caseRows.map((c) => [c.id, c]));
      const seasonById = new Map(project.seasons.map((s, position) => [s.id, { ...s, position }]));
      // The project's question categories, and any other its cases' questions name.
      const categories = new Map(project.question_categories.map((c) => [c.id, c.name]));
      const unnamed = caseRows
        .flatMap((c) => c.body.questions.map((q) => q.category_id))
        .filter((id): id is string => !!id && !categories.has(id));
      for (const id of new Set(unnamed)) categories.set(id, 'Other category');
      const categoryList = [...categories].sort((a, b) => a[1].localeCompare(b[1]));
      const columns: Column[] = [
        ...personColumns,
        { header: 'Season', width: 16 },
        { header: 'Round', kind: 'number' },
        { header: 'Case', width: 30 },
        { header: 'Status', width: 12 },
        { header: 'Submitted (UTC)', kind: 'datetime', width: 20 },
        { header: 'Score', kind: 'number' },
        { header: 'Change from Round 1', kind: 'number' },
        { header: 'Necessary choices missed', kind: 'number' },
        { header: 'Unnecessary choices chosen', kind: 'number' },
        ...categoryList.flatMap(([, name]): Column[] => [
          { header: `${name}: under-use (%)`, kind: 'number' },
          { header: `${name}: over-use (%)`, kind: 'number' },
        ]),
      ];
      const seasonId = season?.id ?? null;
      const order = (a: AttemptRow, b: AttemptRow) =>
        (seasonById.get(a.seasonId)?.position ?? 0) - (seasonById.get(b.seasonId)?.position ?? 0) ||
        a.roundNumber - b.roundNumber ||
        (caseById.get(a.caseId)?.name ?? '').localeCompare(caseById.get(b.caseId)?.name ?? '') ||
        a.caseId.localeCompare(b.caseId);
      async function* rows(): AsyncGenerator<Cell[][]> {
        const pages = pagesOf(
          projectId,
          { requirement: { attemptsIn: seasonId }, limit: SCORE_PAGE },
          async (people) => {
            const attempts = await reports.attemptsOf(
              projectId,
              people.map((p) => p.userId),
              seasonId,
            );
            const complete = attempts.filter((a) => a.status === 'COMPLETE').map((a) => a.id);
            const answers = await reports.answersOf(complete);
            return { attempts: groupBy(attempts, (a) => a.userId), answers: groupBy(answers, (a) => a.attemptId) };
          },
        );
        for await (const { people, data } of pages) {
          const page: Cell[][] = [];
          for (const person of people) {
            const theirs = (data.attempts.get(person.userId) ?? []).sort(order);
            // Their Round 1 average in each season, which later rounds are compared with.
            const roundOne = new Map(
              [...groupBy(theirs, (a) => a.seasonId)].map(([id, inSeason]) => [
                id,
                averageScore(completedScores(inSeason.filter((a) => a.roundNumber === 1))),
              ]),
            );
            for (const attempt of theirs) {
              const doc = caseById.get(attempt.caseId);
              const complete = attempt.status === 'COMPLETE';
              const breakdown = complete && doc ? answerBreakdown(doc.body, data.answers.get(attempt.id) ?? []) : null;
              const base = roundOne.get(attempt.seasonId);
              const change =
                complete && attempt.roundNumber > 1 && attempt.score !== null && base !== null && base !== undefined
                  ? Math.round((attempt.score - base) * 10) / 10
                  : null;
              page.push([
                ...personCells(person),
                seasonById.get(attempt.seasonId)?.name ?? null,
                attempt.roundNumber,
                doc?.name ?? null,
                statusLabels[attempt.status],
                complete ? attempt.submittedAt : null,
                complete ? attempt.score : null,
                change,
                breakdown?.necessaryMissed ?? null,
                breakdown?.unnecessaryChosen ?? null,
                ...categoryList.flatMap(([id]): Cell[] => {
                  const use = breakdown?.byCategory.get(id);
                  return use
                    ? [
                        percent(use.necessaryMissed, use.necessaryAvailable),
                        percent(use.unnecessaryChosen, use.unnecessaryAvailable),
                      ]
                    : [null, null];
                }),
              ]);
            }
          }
          yield page;
        }
      }
      return { title: 'Project score', fileName: fileName(project, 'project-score', season), columns, rows: rows() };
    },
  };
}
