import { randomUUID } from 'node:crypto';
import {
  isChoiceQuestion,
  isSingleAnswer,
  projectSurveyFields,
  surveyFieldType,
  surveyTemplateProblems,
  type DueSurveys,
  type FieldIssue,
  type LinkedProject,
  type Paged,
  type ParticipantSurvey,
  type ProjectSurvey,
  type ProjectSurveyField,
  type SavedSurveyComponent,
  type SavedSurveyPage,
  type StoredSurveyAnswer,
  type SurveyQuestion,
  type SurveyTemplate,
  type SurveyTemplateListQuery,
  type SurveyTemplateSelection,
  type SurveyTemplateSummary,
  type SurveyTemplateTypeValue,
} from '@pss/contract';
import type { z } from 'zod';
import type { createSurveyTemplateBody, surveyAnswerBody, surveyPage, projectSurveyBody } from '@pss/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { visibleClientId } from '../clients/clients.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { sanitizeQuestionHtml, shownPages } from './survey-rich-text.js';
import {
  createSurveysRepository,
  type ProjectSurveyRow,
  type SurveyResponseRow,
  type SurveyTemplateRow,
  type SurveysRepository,
  type TemplateWithUse,
} from './surveys.repository.js';

type PageInput = z.output<typeof surveyPage>;
type TemplateInput = Pick<z.output<typeof createSurveyTemplateBody>, 'name' | 'type' | 'pages'>;
type AnswerBody = z.output<typeof surveyAnswerBody>;
type ProjectSurveyInput = z.output<typeof projectSurveyBody>;

const columnOf: Record<ProjectSurveyField, keyof ProjectSurveyRow> = {
  start_new_template_id: 'startNewTemplateId',
  start_returning_template_id: 'startReturningTemplateId',
  review_template_id: 'reviewTemplateId',
  end_template_id: 'endTemplateId',
};
const fieldOfType = Object.fromEntries(projectSurveyFields.map((field) => [surveyFieldType[field], field])) as Record<
  SurveyTemplateTypeValue,
  ProjectSurveyField
>;

/** Ids the builder gave are kept; a missing or repeated one is replaced (answers point at them). */
function withIds(pages: PageInput[], fresh = false): SavedSurveyPage[] {
  const seen = new Set<string>();
  const idOf = (id: string | undefined) => {
    const next = !fresh && id && !seen.has(id) ? id : randomUUID();
    seen.add(next);
    return next;
  };
  return pages.map((page) => ({
    id: idOf(page.id),
    name: page.name.trim(),
    components: page.components.map((c): SavedSurveyComponent => {
      if (c.kind === 'INFO_REVIEW') return { id: idOf(c.id), kind: 'INFO_REVIEW', text: c.text.trim() };
      return {
        id: idOf(c.id),
        kind: 'QUESTION',
        type: c.type,
        text: c.text.trim(),
        text_before: sanitizeQuestionHtml(c.text_before),
        required: c.required,
        // Free text takes no choices, except a type-ahead's suggestions.
        choices:
          c.type === 'TEXT' ? [] : c.choices.map((choice) => ({ id: idOf(choice.id), text: choice.text.trim() })),
        allow_other: isChoiceQuestion(c.type) && c.allow_other,
        allow_none_of_below: isChoiceQuestion(c.type) && c.allow_none_of_below,
      };
    }),
  }));
}

const questionsOf = (pages: SavedSurveyPage[]): SurveyQuestion[] =>
  pages.flatMap((p) => p.components.filter((c): c is SurveyQuestion => c.kind === 'QUESTION'));
const hasInfoReview = (pages: SavedSurveyPage[]) =>
  pages.some((p) => p.components.some((c) => c.kind === 'INFO_REVIEW'));

/**
 * The template rule, as a refusal: an info review in a START_NEW template first, then a page
 * name used twice (naming the page), then anything else (VALIDATION_ERROR); each issue names
 * its field (`body.pages.1.name`).
 */
function assertValid(input: { type: SurveyTemplateTypeValue; pages: SavedSurveyPage[] }): void {
  const problems = surveyTemplateProblems(input).map((p) => ({ ...p, field: `body.${p.field}` }));
  if (!problems.length) return;
  const infoReview = problems.filter((p) => p.errorCode === 'START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED');
  if (infoReview.length) {
    throw new AppError('START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED', { details: { fields: infoReview } });
  }
  const names = problems.filter((p) => p.errorCode === 'PAGE_NAME_NOT_UNIQUE');
  if (names.length) {
    const named = names.map((p) => `"${input.pages[Number(p.field.split('.')[2])]?.name ?? ''}"`).join(', ');
    throw new AppError('PAGE_NAME_NOT_UNIQUE', {
      message: `Page names must be unique: ${named} is used more than once.`,
      details: { fields: names },
    });
  }
  throw validationError(problems);
}

function toTemplate(row: TemplateWithUse): SurveyTemplate {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    pages: shownPages(row.pages),
    project_count: row.projectCount,
    answered: row.answered,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toSummary(row: TemplateWithUse): SurveyTemplateSummary {
  const { pages: _, ...rest } = toTemplate({ ...row, pages: [] });
  return { ...rest, page_count: row.pageCount, question_count: row.questionCount };
}

const counts = (pages: SavedSurveyPage[]) => ({ pageCount: pages.length, questionCount: questionsOf(pages).length });

function answeredAt(answer: StoredSurveyAnswer): boolean {
  return answer.choice_ids.length > 0 || Boolean(answer.text?.trim()) || answer.none_of_below;
}

/**
 * Checks answers against the template's questions: every component one of its questions
 * (once), every choice one of that question's, one choice for single-answer types, text only
 * where the question takes it; with `complete`, every required question answered.
 */
export function checkAnswers(pages: SavedSurveyPage[], body: AnswerBody): StoredSurveyAnswer[] {
  const questions = new Map(questionsOf(pages).map((q) => [q.id, q]));
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const stored: StoredSurveyAnswer[] = [];
  body.answers.forEach((answer, i) => {
    const at = `body.answers.${i}`;
    const q = questions.get(answer.component_id);
    if (!q) return issues.push({ field: `${at}.component_id`, message: 'This is not a question of this survey.' });
    if (seen.has(q.id))
      return issues.push({ field: `${at}.component_id`, message: 'This question is answered twice.' });
    seen.add(q.id);
    const choiceIds = new Set(q.choices.map((c) => c.id));
    const text = answer.text?.trim() || null;
    if (!isChoiceQuestion(q.type) && answer.choice_ids.length) {
      issues.push({ field: `${at}.choice_ids`, message: 'This question takes text, not choices.' });
    } else if (answer.choice_ids.some((id) => !choiceIds.has(id))) {
      issues.push({ field: `${at}.choice_ids`, message: 'A choice is not one of this question’s.' });
    } else if (isSingleAnswer(q.type) && answer.choice_ids.length > 1) {
      issues.push({ field: `${at}.choice_ids`, message: 'This question takes one choice.' });
    }
    if (text && isChoiceQuestion(q.type) && !q.allow_other) {
      issues.push({ field: `${at}.text`, message: 'This question has no "other" entry.' });
    }
    if (answer.none_of_below && (!q.allow_none_of_below || answer.choice_ids.length)) {
      issues.push({ field: `${at}.none_of_below`, message: '"None of the below" is not possible here.' });
    }
    stored.push({ component_id: q.id, choice_ids: answer.choice_ids, text, none_of_below: answer.none_of_below });
  });
  if (body.complete) {
    for (const q of questions.values()) {
      const given = stored.find((a) => a.component_id === q.id);
      if (q.required && !(given && answeredAt(given))) {
        issues.push({ field: `components.${q.id}`, errorCode: 'FIELD_REQUIRED', message: `Answer "${q.text}".` });
      }
    }
  }
  if (issues.length) throw validationError(issues);
  return stored;
}

/**
 * Survey templates (superadmins write them; staff read the ones their client may), a
 * project's choice of one per type, and participants' answers. Isolation: a client
 * administrator sees templates no project uses and those their own client's projects use;
 * one used only by other clients' projects is "not found".
 */
export function createSurveysService(deps: {
  db: Db;
  projects: Pick<ProjectsService, 'requireVisible'>;
  clock: Clock;
}) {
  const surveys = createSurveysRepository(deps.db);

  async function visible(caller: AccessClaims, id: string, repository: SurveysRepository = surveys) {
    const row = await repository.findVisible(id, visibleClientId(caller));
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** A UserSeasonRoundCase of the caller's own; anyone else's is "not found". */
  async function ownAttempt(caller: AccessClaims, attemptId: string, repository: SurveysRepository = surveys) {
    const attempt = await repository.attempt(attemptId);
    if (!attempt || attempt.userId !== caller.userId) throw new AppError('NOT_FOUND');
    return attempt;
  }

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

  async function participantSurvey(
    template: SurveyTemplateRow,
    userId: string,
    response: SurveyResponseRow | undefined,
  ): Promise<ParticipantSurvey> {
    const profile = hasInfoReview(template.pages) ? await surveys.profile(userId) : undefined;
    return {
      template_id: template.id,
      type: template.type,
      name: template.name,
      pages: shownPages(template.pages),
      answers: response?.answers ?? [],
      profile: profile
        ? {
            user_id: profile.id,
            salutation: profile.salutation,
            first_name: profile.firstName,
            last_name: profile.lastName,
            display_name: profile.displayName,
            profession: profile.profession,
            specialty: profile.specialty,
            facility: profile.facility,
            npi: profile.npi,
            practice_number: profile.practiceNumber,
            mobile_number: profile.mobileNumber,
          }
        : null,
    };
  }

  type Attempt = NonNullable<Awaited<ReturnType<SurveysRepository['attempt']>>>;

  /** The template of a type the attempt's project uses and this participant has not yet completed on it. */
  async function open(attempt: Attempt, type: SurveyTemplateTypeValue): Promise<ParticipantSurvey | null> {
    const row = await surveys.projectSurvey(attempt.projectId);
    const templateId = row?.[columnOf[fieldOfType[type]]] as string | null | undefined;
    if (!templateId) return null;
    const [template] = await surveys.findByIds([templateId]);
    if (!template) return null;
    const response = await surveys.response(attempt.userId, template.id, attempt.id);
    if (response?.completedAt) return null;
    return participantSurvey(template, attempt.userId, response);
  }

  const startTypes: SurveyTemplateTypeValue[] = ['START_NEW', 'START_RETURNING'];
  async function startDue(attempt: Attempt) {
    if (await surveys.completedInSeason(attempt.userId, attempt.seasonId, startTypes)) return null;
    const type = (await surveys.returning(attempt.userId, attempt.seasonId)) ? 'START_RETURNING' : 'START_NEW';
    return open(attempt, type);
  }
  async function endDue(attempt: Attempt) {
    if (!(await surveys.seasonComplete(attempt.userId, attempt.seasonId))) return null;
    if (await surveys.completedInSeason(attempt.userId, attempt.seasonId, ['END'])) return null;
    return open(attempt, 'END');
  }

  return {
    async list(caller: AccessClaims, query: SurveyTemplateListQuery): Promise<Paged<SurveyTemplateSummary>> {
      const scope = visibleClientId(caller);
      const empty = { items: [], total: 0, page: query.page, limit: query.limit };
      // An administrator asking about another client's projects learns nothing of them.
      if (scope && query.filter.client_id && query.filter.client_id !== scope) return empty;
      if (scope && query.filter.project_id) {
        const known = await deps.projects.requireVisible(caller, query.filter.project_id).catch(() => null);
        if (!known) return empty;
      }
      const page = await surveys.list(query, scope);
      return { ...page, items: page.items.map(toSummary) };
    },

    async get(caller: AccessClaims, id: string): Promise<SurveyTemplate> {
      return toTemplate(await visible(caller, id));
    },

    async create(caller: AccessClaims, input: TemplateInput): Promise<SurveyTemplate> {
      const pages = withIds(input.pages);
      assertValid({ type: input.type, pages });
      const now = deps.clock.now();
      const id = await surveys.insert({
        name: input.name,
        type: input.type,
        pages,
        ...counts(pages),
        createdAt: now,
        updatedAt: now,
      });
      return toTemplate(await visible(caller, id));
    },

    /**
     * Saves the template whole, unless a participant has answered it (SURVEY_ALREADY_ATTACHED:
     * duplicate it instead). Its type may change only while no project uses it (a project's
     * field takes one type: INCORRECT_TEMPLATE_TYPE).
     */
    async update(caller: AccessClaims, id: string, input: TemplateInput): Promise<SurveyTemplate> {
      const pages = withIds(input.pages);
      await deps.db.transaction(async (tx) => {
        const locked = createSurveysRepository(tx);
        const current = await locked.lock(id);
        if (!current) throw new AppError('NOT_FOUND');
        assertValid({ type: input.type, pages });
        if (input.type !== current.type && (await locked.linkedProjects(id, null)).length) {
          throw new AppError('INCORRECT_TEMPLATE_TYPE', {
            message: 'A project uses this template for its type: its type cannot change.',
            details: { fields: [{ field: 'body.type', message: 'A project uses this template for its type.' }] },
          });
        }
        const written = await locked.updateUnanswered(id, {
          name: input.name,
          type: input.type,
          pages,
          ...counts(pages),
          updatedAt: deps.clock.now(),
        });
        if (!written) {
          throw new AppError('SURVEY_ALREADY_ATTACHED', {
            message: 'Participants have answered this survey, so it cannot change: duplicate it and change the copy.',
          });
        }
      });
      return toTemplate(await visible(caller, id));
    },

    /** A copy under a new name, with new ids throughout (the original's answers stay the original's). */
    async duplicate(caller: AccessClaims, id: string, name: string | undefined): Promise<SurveyTemplate> {
      const original = await visible(caller, id);
      const pages = withIds(original.pages, true);
      const now = deps.clock.now();
      const copy = await surveys.insert({
        name: name ?? `${original.name} (copy)`.slice(0, 200),
        type: original.type,
        pages,
        ...counts(pages),
        createdAt: now,
        updatedAt: now,
      });
      return toTemplate(await visible(caller, copy));
    },

    /** Deletes the selection whole, or nothing when any of it is used by a project or was answered. */
    async remove(caller: AccessClaims, selection: SurveyTemplateSelection): Promise<{ ids: string[] }> {
      const scope = visibleClientId(caller);
      return deps.db.transaction(async (tx) => {
        const locked = createSurveysRepository(tx);
        const ids = await locked.selected(selection, scope);
        if ('ids' in selection && ids.length < new Set(selection.ids).size) throw new AppError('NOT_FOUND');
        const used = await locked.inUse(ids);
        if (used.length) {
          throw new AppError('SURVEY_ATTACHED_DELETE_FORBIDDEN', {
            message: `Used by a project or answered, so not deleted: ${used.map((t) => `"${t.name}"`).join(', ')}.`,
            details: { templates: used },
          });
        }
        return { ids: await locked.deleteMany(ids) };
      });
    },

    async linkedProjects(caller: AccessClaims, id: string): Promise<LinkedProject[]> {
      await visible(caller, id);
      const rows = await surveys.linkedProjects(id, visibleClientId(caller));
      return rows.map((r) => ({
        project_id: r.projectId,
        project_name: r.projectName,
        client_id: r.clientId,
        client_name: r.clientName,
        type: r.type,
      }));
    },

    async projectSurvey(caller: AccessClaims, projectId: string): Promise<ProjectSurvey> {
      await deps.projects.requireVisible(caller, projectId);
      return toProjectSurvey(projectId, await surveys.projectSurvey(projectId));
    },

    /**
     * Chooses the project's templates: each field a template of its own type
     * (INCORRECT_TEMPLATE_TYPE otherwise) that the caller may see, or null. Answers already
     * given stay with the template they answered, whatever is chosen now.
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
          }
          (next as Record<string, string | null>)[columnOf[field]] = id;
        }
        await locked.saveProjectSurvey(projectId, next, deps.clock.now());
      });
      return toProjectSurvey(projectId, await surveys.projectSurvey(projectId));
    },

    /** What is due around one of the caller's cases: the start survey, its review, the season's end survey. */
    async due(caller: AccessClaims, attemptId: string): Promise<DueSurveys> {
      const attempt = await ownAttempt(caller, attemptId);
      return {
        start: await startDue(attempt),
        review: attempt.status === 'COMPLETE' ? await open(attempt, 'REVIEW') : null,
        end: await endDue(attempt),
      };
    },

    async endSurvey(caller: AccessClaims, attemptId: string, projectId: string) {
      const attempt = await ownAttempt(caller, attemptId);
      if (attempt.projectId !== projectId) throw new AppError('NOT_FOUND');
      const survey = await endDue(attempt);
      return { due: survey !== null, survey };
    },

    /**
     * A participant's answers to a template their case's project uses, on that case: checked
     * against the template, kept as they are given, and complete once (then unchangeable).
     */
    async answer(
      caller: AccessClaims,
      templateId: string,
      attemptId: string,
      body: AnswerBody,
    ): Promise<{ complete: boolean }> {
      const attempt = await ownAttempt(caller, attemptId);
      const chosen = await surveys.projectSurvey(attempt.projectId);
      const field = projectSurveyFields.find((f) => chosen?.[columnOf[f]] === templateId);
      if (!field) throw new AppError('NOT_FOUND', { message: 'This case’s project does not use this survey.' });
      const type = surveyFieldType[field];
      if (type === 'REVIEW' && attempt.status !== 'COMPLETE') {
        throw new AppError('CASES_NOT_COMPLETED', { message: 'The case is reviewed after it is submitted.' });
      }
      if (type === 'END' && !(await surveys.seasonComplete(attempt.userId, attempt.seasonId))) {
        throw new AppError('CASES_NOT_COMPLETED', { message: 'The end survey comes after the season’s last case.' });
      }
      if (type === 'START_NEW' || type === 'START_RETURNING') {
        const returning = await surveys.returning(attempt.userId, attempt.seasonId);
        if ((type === 'START_RETURNING') !== returning) {
          throw new AppError('INCORRECT_TEMPLATE_TYPE', {
            message: returning
              ? 'You took part in an earlier season: the returning participants’ survey is yours.'
              : 'This survey is for participants returning from an earlier season.',
          });
        }
      }
      await deps.db.transaction(async (tx) => {
        const locked = createSurveysRepository(tx);
        // Shared lock: an edit of the template waits, and sees the answer when it runs.
        const template = await locked.lock(templateId, 'share');
        if (!template) throw new AppError('NOT_FOUND');
        const answers = checkAnswers(template.pages, body);
        const now = deps.clock.now();
        const saved = await locked.saveResponse(
          {
            templateId,
            templateType: template.type,
            userSeasonRoundCaseId: attempt.id,
            userId: attempt.userId,
            projectId: attempt.projectId,
            seasonId: attempt.seasonId,
            answers,
            completedAt: body.complete ? now : null,
          },
          now,
        );
        if (!saved) {
          throw new AppError('CHANGES_FORBIDDEN', {
            message: 'This survey was already answered; answers stay as given.',
          });
        }
      });
      return { complete: body.complete };
    },

    /* ---------- for the project-survey-response report ---------- */

    answeredTemplates: (projectId: string, type: SurveyTemplateTypeValue) => surveys.answeredTemplates(projectId, type),
    responsesOf: (projectId: string, type: SurveyTemplateTypeValue, userIds: string[]) =>
      surveys.responsesOf(projectId, type, userIds),
  };
}

export type SurveysService = ReturnType<typeof createSurveysService>;
export { questionsOf };
