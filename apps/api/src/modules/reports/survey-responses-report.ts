import type { z } from 'zod';
import type { SurveyTemplateType } from '@pss/contract';
import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { questionsOf } from '../surveys/surveys.service.js';
import { PAGE, personCells, personColumns, type ReportContext } from './report-context.js';
import { groupBy, surveyAnswerText } from './report-rows.js';

type SurveyType = z.infer<typeof SurveyTemplateType>;
const surveyNames: Record<SurveyType, string> = {
  START_NEW: 'start-new',
  START_RETURNING: 'start-returning',
  REVIEW: 'review',
  END: 'end',
};

/** The survey responses report, read through the surveys service. */
export function surveyResponsesReport(context: ReportContext) {
  const { deps, projectFor, fileName, pagesOf } = context;

  return {
    /**
     * Answers to the project's surveys of one type: a row per participant and survey answered
     * (on one UserSeasonRoundCase), a column per question of the templates of that type its
     * participants answered (named after the template too when there are several). An
     * answer is its choices' texts, "Other: …", "None of the below", or the text typed.
     */
    async projectSurveyResponse(caller: AccessClaims, projectId: string, type: SurveyType): Promise<Table> {
      const project = await projectFor(caller, projectId);
      const templates = await deps.surveys.answeredTemplates(projectId, type);
      const seasonById = new Map(project.seasons.map((s) => [s.id, s.name]));
      const questions = templates.flatMap((t) =>
        questionsOf(t.pages).map((q) => ({ templateId: t.id, templateName: t.name, question: q })),
      );
      const templateName = new Map(templates.map((t) => [t.id, t.name]));
      const columns: Column[] = [
        ...personColumns.slice(0, 4),
        { header: 'Season', width: 16 },
        { header: 'Round', kind: 'number' },
        { header: 'Case', width: 30 },
        { header: 'Survey', width: 20 },
        { header: 'Complete', width: 10 },
        { header: 'Answered (UTC)', kind: 'datetime', width: 20 },
        ...questions.map((q): Column => ({
          header: templates.length > 1 ? `${q.templateName}: ${q.question.text}` : q.question.text,
          width: 30,
        })),
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        if (!templates.length) return;
        const pages = pagesOf(projectId, { requirement: null, limit: PAGE }, async (people) =>
          groupBy(
            await deps.surveys.responsesOf(
              projectId,
              type,
              people.map((p) => p.userId),
            ),
            (r) => r.userId,
          ),
        );
        for await (const { people, data } of pages) {
          const page: Cell[][] = [];
          for (const person of people) {
            for (const response of data.get(person.userId) ?? []) {
              const given = new Map(response.answers.map((a) => [a.component_id, a]));
              page.push([
                ...personCells(person).slice(0, 4),
                seasonById.get(response.seasonId) ?? null,
                response.roundNumber,
                response.caseName,
                templateName.get(response.templateId) ?? null,
                response.completedAt ? 'Yes' : 'No',
                response.completedAt ?? response.updatedAt,
                ...questions.map((q) =>
                  q.templateId === response.templateId ? surveyAnswerText(q.question, given.get(q.question.id)) : null,
                ),
              ]);
            }
          }
          yield page;
        }
      }
      return {
        title: 'Survey responses',
        fileName: fileName(project, `survey-responses-${surveyNames[type]}`),
        columns,
        rows: rows(),
      };
    },
  };
}
