import type { DueSurveys, ParticipantSurvey, SurveyTemplateTypeValue } from '@pss/contract';
import { projectSurveyFields, surveyFieldType } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { columnOf, fieldOfType } from './project-surveys.js';
import { checkAnswers, type AnswerBody } from './survey-answer-checks.js';
import type { SurveyContext } from './survey-context.js';
import { createSurveyResponsesRepository, type SurveyResponsesRepository } from './survey-responses.repository.js';
import { shownPages } from './survey-rich-text.js';
import { hasInfoReview } from './survey-template-pages.js';
import { createSurveysRepository, type SurveyResponseRow, type SurveyTemplateRow } from './surveys.repository.js';

/**
 * The participants' side: which surveys are due around one of their cases (the start survey,
 * its review, the season's end survey), and their answers, checked against the template.
 */
export function createSurveyParticipation(context: SurveyContext) {
  const { deps, surveys, responses } = context;

  /** A UserSeasonRoundCase of the caller's own; anyone else's is "not found". */
  async function ownAttempt(caller: AccessClaims, attemptId: string) {
    const attempt = await responses.attempt(attemptId);
    if (!attempt || attempt.userId !== caller.userId) throw new AppError('NOT_FOUND');
    return attempt;
  }

  async function participantSurvey(
    template: SurveyTemplateRow,
    userId: string,
    response: SurveyResponseRow | undefined,
  ): Promise<ParticipantSurvey> {
    const profile = hasInfoReview(template.pages) ? await responses.profile(userId) : undefined;
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

  type Attempt = NonNullable<Awaited<ReturnType<SurveyResponsesRepository['attempt']>>>;

  /** The template of a type the attempt's project uses that this participant has not yet completed on it, with their answers so far. */
  async function openTemplate(attempt: Attempt, type: SurveyTemplateTypeValue) {
    const row = await surveys.projectSurvey(attempt.projectId);
    const templateId = row?.[columnOf[fieldOfType[type]]] as string | null | undefined;
    if (!templateId) return null;
    const [template] = await surveys.findByIds([templateId]);
    if (!template) return null;
    const response = await responses.response(attempt.userId, template.id, attempt.id);
    if (response?.completedAt) return null;
    return { template, response };
  }

  /** `openTemplate` as the participant is shown it. */
  async function open(attempt: Attempt, type: SurveyTemplateTypeValue): Promise<ParticipantSurvey | null> {
    const opened = await openTemplate(attempt, type);
    return opened && participantSurvey(opened.template, attempt.userId, opened.response);
  }

  const startTypes: SurveyTemplateTypeValue[] = ['START_NEW', 'START_RETURNING'];
  /** The start survey's type still due to the participant in the attempt's season, if any. */
  async function startTypeDue(attempt: Attempt): Promise<SurveyTemplateTypeValue | null> {
    if (await responses.completedInSeason(attempt.userId, attempt.seasonId, startTypes)) return null;
    return (await responses.returning(attempt.userId, attempt.seasonId)) ? 'START_RETURNING' : 'START_NEW';
  }
  async function startDue(attempt: Attempt) {
    const type = await startTypeDue(attempt);
    return type && open(attempt, type);
  }
  async function endDue(attempt: Attempt) {
    if (!(await responses.seasonComplete(attempt.userId, attempt.seasonId))) return null;
    if (await responses.completedInSeason(attempt.userId, attempt.seasonId, ['END'])) return null;
    return open(attempt, 'END');
  }

  return {
    /** What is due around one of the caller's cases: the start survey, its review, the season's end survey. */
    async due(caller: AccessClaims, attemptId: string): Promise<DueSurveys> {
      const attempt = await ownAttempt(caller, attemptId);
      return {
        start: await startDue(attempt),
        review: attempt.status === 'COMPLETE' ? await open(attempt, 'REVIEW') : null,
        end: await endDue(attempt),
      };
    },

    /**
     * Whether the season's start survey is still to be answered before this attempt begins
     * (the project uses one of the participant's kind and they have not completed it in the
     * season): starting and answering a case wait for it.
     */
    async startSurveyPending(attemptId: string): Promise<boolean> {
      // Only whether one is due: the survey is not built for showing (no profile read).
      const attempt = await responses.attempt(attemptId);
      if (!attempt) return false;
      const type = await startTypeDue(attempt);
      return type !== null && (await openTemplate(attempt, type)) !== null;
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
      if (type === 'END' && !(await responses.seasonComplete(attempt.userId, attempt.seasonId))) {
        throw new AppError('CASES_NOT_COMPLETED', { message: 'The end survey comes after the season’s last case.' });
      }
      if (type === 'START_NEW' || type === 'START_RETURNING') {
        const returning = await responses.returning(attempt.userId, attempt.seasonId);
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
        const answering = createSurveyResponsesRepository(tx);
        // Shared lock: an edit of the template waits, and sees the answer when it runs.
        const template = await locked.lock(templateId, 'share');
        if (!template) throw new AppError('NOT_FOUND');
        const answers = checkAnswers(template.pages, body);
        const now = deps.clock.now();
        const saved = await answering.saveResponse(
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
  };
}
