import type { SurveyTemplateTypeValue } from '@pss/contract';
import { createProjectSurveys } from './project-surveys.js';
import { createSurveyContext, type SurveysDeps } from './survey-context.js';
import { createSurveyParticipation } from './survey-participation.js';
import { createSurveyTemplates } from './survey-templates.js';

export { checkAnswers } from './survey-answer-checks.js';
export { questionsOf } from './survey-template-pages.js';

/**
 * Survey templates (superadmins write them; staff read the ones their client may), a
 * project's choice of one per type, and participants' answers. Isolation: a client
 * administrator sees templates no project uses and those their own client's projects use;
 * one used only by other clients' projects is "not found".
 *
 * The templates (`survey-templates.ts`), a project's choice (`project-surveys.ts`) and the
 * participants' side (`survey-participation.ts`) are modules of their own, on one context
 * (`survey-context.ts`).
 */
export function createSurveysService(deps: SurveysDeps) {
  const context = createSurveyContext(deps);
  const { responses } = context;

  return {
    ...createSurveyTemplates(context),
    ...createProjectSurveys(context),
    ...createSurveyParticipation(context),

    /* ---------- for the project-survey-response report ---------- */

    answeredTemplates: (projectId: string, type: SurveyTemplateTypeValue) =>
      responses.answeredTemplates(projectId, type),
    responsesOf: (projectId: string, type: SurveyTemplateTypeValue, userIds: string[]) =>
      responses.responsesOf(projectId, type, userIds),
  };
}

export type SurveysService = ReturnType<typeof createSurveysService>;
