import {
  emptySurveyProblems,
  projectSurveyFields,
  surveyFieldType,
  type ProjectSurvey,
  type ProjectSurveyField,
  type SurveyTemplateTypeValue,
} from '@pss/contract';
import type { z } from 'zod';
import type { projectSurveyBody } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { SurveyContext } from './survey-context.js';
import { createSurveysRepository, type ProjectSurveyRow } from './surveys.repository.js';

type ProjectSurveyInput = z.output<typeof projectSurveyBody>;

export const columnOf: Record<ProjectSurveyField, keyof ProjectSurveyRow> = {
  start_new_template_id: 'startNewTemplateId',
  start_returning_template_id: 'startReturningTemplateId',
  review_template_id: 'reviewTemplateId',
  end_template_id: 'endTemplateId',
};
export const fieldOfType = Object.fromEntries(
  projectSurveyFields.map((field) => [surveyFieldType[field], field]),
) as Record<SurveyTemplateTypeValue, ProjectSurveyField>;

/** A project's choice of one template per type, as staff who may see the project read and set it. */
export function createProjectSurveys(context: SurveyContext) {
  const { deps, surveys, visible } = context;

  async function toProjectSurvey(projectId: string, row: ProjectSurveyRow | undefined): Promise<ProjectSurvey> {
    const ids = projectSurveyFields.map((f) => (row?.[columnOf[f]] as string | null | undefined) ?? null);
    const templates = await surveys.findByIds(ids.filter((id): id is string => id !== null));
    return {
      project_id: projectId,
      start_new_template_id: ids[0]!,
      start_returning_template_id: ids[1]!,
      review_template_id: ids[2]!,
      end_template_id: ids[3]!,
      templates: templates.map((t) => ({ id: t.id, name: t.name, type: t.type })),
    };
  }

  return {
    async projectSurvey(caller: AccessClaims, projectId: string): Promise<ProjectSurvey> {
      await deps.projects.requireVisible(caller, projectId);
      return toProjectSurvey(projectId, await surveys.projectSurvey(projectId));
    },

    /**
     * Chooses the project's templates: each field a template of its own type
     * (INCORRECT_TEMPLATE_TYPE otherwise) that the caller may see, or null; a newly chosen one
     * must not be empty (SURVEY_EMPTY), since participants would meet an empty page. Answers
     * already given stay with the template they answered, whatever is chosen now.
     */
    async setProjectSurvey(caller: AccessClaims, projectId: string, body: ProjectSurveyInput): Promise<ProjectSurvey> {
      await deps.projects.requireVisible(caller, projectId);
      await deps.db.transaction(async (tx) => {
        const locked = createSurveysRepository(tx);
        const current = await locked.projectSurvey(projectId);
        const next = {
          startNewTemplateId: current?.startNewTemplateId ?? null,
          startReturningTemplateId: current?.startReturningTemplateId ?? null,
          reviewTemplateId: current?.reviewTemplateId ?? null,
          endTemplateId: current?.endTemplateId ?? null,
        };
        for (const field of projectSurveyFields) {
          const id = body[field];
          if (id === undefined) continue;
          if (id !== null) {
            // Locked so that the template cannot be deleted or change type meanwhile.
            const template = (await locked.lock(id, 'share')) && (await visible(caller, id, locked).catch(() => null));
            if (!template) {
              throw new AppError('NOT_FOUND', {
                message: 'No such survey template.',
                details: { fields: [{ field: `body.${field}`, message: 'No such survey template.' }] },
              });
            }
            if (template.type !== surveyFieldType[field]) {
              throw new AppError('INCORRECT_TEMPLATE_TYPE', {
                message: `"${template.name}" is a ${template.type} template; ${field} takes a ${surveyFieldType[field]} one.`,
                details: {
                  fields: [{ field: `body.${field}`, message: `Choose a ${surveyFieldType[field]} template.` }],
                },
              });
            }
            // Newly chosen only: one chosen before templates had to hold a question may stay.
            const wasChosen = id === (current?.[columnOf[field]] ?? null);
            if (!wasChosen && emptySurveyProblems(template.pages).length) {
              throw new AppError('SURVEY_EMPTY', {
                message: `"${template.name}" has an empty page or none: participants would see nothing.`,
                details: { fields: [{ field: `body.${field}`, message: 'Choose a survey with questions.' }] },
              });
            }
          }
          (next as Record<string, string | null>)[columnOf[field]] = id;
        }
        await locked.saveProjectSurvey(projectId, next, deps.clock.now());
      });
      return toProjectSurvey(projectId, await surveys.projectSurvey(projectId));
    },
  };
}
