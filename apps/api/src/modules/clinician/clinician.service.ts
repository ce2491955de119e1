import type { Attempt, AttemptResult, CaseAnswer, CaseDocument } from '@pss/contract';
import { dayIn, type Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import {
  checkAnswers,
  feedbackFor,
  missingRequired,
  scoreAnswers,
  type CasesService,
  type StoredAnswer,
} from '../cases/cases.service.js';
import type { CaseImage, CaseMediaService } from '../cases/case-media.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { SeasonSummariesService } from '../season-summaries/season-summaries.service.js';
import type { UsersService } from '../users/users.service.js';
import type { AnswerInput, AnswerRecord, AttemptRow, AttemptsRepository, FoundAttempt } from './attempts.repository.js';
import { createAttemptGuards, notPublished, submitted } from './attempt-guards.js';
import { CheckedCases } from './checked-cases.js';
import { createDashboards } from './dashboards.js';
import { takeCallEvent } from '../audit/audit-scope.service.js';

type Caller = AccessClaims;

function toAnswerInput(answer: StoredAnswer): AnswerInput {
  return {
    questionId: answer.question_id,
    choiceIds: answer.choice_ids,
    text: answer.text,
    noneOfBelow: answer.none_of_below,
  };
}

/**
 * The participants' side of cases: their dashboard (./dashboards.ts), and each
 * UserSeasonRoundCase they take — start, answer question by question (each answer saved as
 * given), submit once for a score, read the feedback, finish. A participant reaches only
 * their own attempts; any other id is "not found".
 */
export function createClinicianService(deps: {
  attempts: AttemptsRepository;
  cases: Pick<CasesService, 'caseForAttempt'>;
  images: Pick<CaseMediaService, 'imageOfCase'>;
  projects: Pick<ProjectsService, 'requireVisible'>;
  users: Pick<UsersService, 'getParticipant'>;
  summaries: Pick<SeasonSummariesService, 'postedFor'>;
  /** Whether a participant's start survey is still due before an attempt (the surveys module decides). */
  surveys: { startSurveyPending(attemptId: string): Promise<boolean> };
  clock: Clock;
  /** The schedule's time zone: the day a case unlocks and a season ends is a day there. */
  timeZone: string;
}) {
  const { attempts } = deps;
  const today = () => dayIn(deps.timeZone, deps.clock.now());
  const guards = createAttemptGuards({ today, startSurveyPending: (id) => deps.surveys.startSurveyPending(id) });
  const { requireUnlocked, requirePublished, requireOpen } = guards;
  const checkedCases = new CheckedCases();

  async function requireOwn(caller: Caller, id: string): Promise<FoundAttempt> {
    const row = await attempts.find(id);
    if (!row || row.userId !== caller.userId) throw new AppError('NOT_FOUND');
    return row;
  }

  async function requireOwnUnlockedCase(caller: Caller, caseId: string): Promise<FoundAttempt> {
    let row = await attempts.findByCase(caller.userId, caseId);
    if (!row) {
      // A case published since the dashboard was last read has no attempt yet.
      await attempts.sync({ userId: caller.userId });
      row = await attempts.findByCase(caller.userId, caseId);
    }
    if (!row || !guards.isUnlocked(row)) throw new AppError('CASE_NOT_FOUND');
    return row;
  }

  async function answersOf(attemptId: string): Promise<Map<string, StoredAnswer>> {
    return toAnswerMap(await attempts.answers(attemptId));
  }

  function toAnswerMap(rows: AnswerRecord[]): Map<string, StoredAnswer> {
    return new Map(
      rows.map((a) => [
        a.questionId,
        { question_id: a.questionId, choice_ids: a.choiceIds, text: a.text, none_of_below: a.noneOfBelow },
      ]),
    );
  }

  async function resultOf(
    doc: CaseDocument,
    answers: Map<string, StoredAnswer>,
    score: number,
  ): Promise<AttemptResult> {
    const scored = scoreAnswers(doc.questions, answers);
    const takeaways = await attempts.takeawaysOf([doc.id]);
    return {
      score,
      feedback_type: doc.feedback_type ?? 'PERSONALIZED_FEEDBACK',
      questions: feedbackFor(doc, answers, scored, await attempts.tagsOf(doc.id)),
      explanation: doc.explanation,
      references: doc.references,
      test_results: doc.test_results,
      key_takeaways: takeaways.map((k) => k.text),
    };
  }

  async function nextCaseAfter(row: AttemptRow): Promise<string | null> {
    const mine = await attempts.listForUser(row.userId, row.projectId);
    const next = mine.find(
      (a) => a.id !== row.id && a.status !== 'COMPLETE' && guards.isUnlocked(a) && !guards.isClosed(a),
    );
    return next?.id ?? null;
  }

  async function view(row: AttemptRow): Promise<Attempt> {
    const { doc, view: caseView } = await deps.cases.caseForAttempt(row.caseId);
    const answers = await answersOf(row.id);
    return {
      id: row.id,
      project_id: row.projectId,
      status: row.status,
      unlocks_on: row.unlocksOn,
      closes_on: row.seasonEndsOn,
      closed: guards.isClosed(row),
      case: caseView,
      answers: [...answers.values()],
      result: row.status === 'COMPLETE' && row.score !== null ? await resultOf(doc, answers, row.score) : null,
      next_case_id: await nextCaseAfter(row),
    };
  }

  return {
    ...createDashboards({ ...deps, guards, today }),

    /**
     * The caller's attempt at a case, by the case's id. A case they are not assigned, or one
     * that has not unlocked for them, is not found: nothing of it is shown before its day.
     */
    async byCase(caller: Caller, caseId: string): Promise<Attempt> {
      return view(await requireOwnUnlockedCase(caller, caseId));
    },

    /** The patient image of a case of the caller's that has unlocked (the same rule as `byCase`). */
    async caseImage(caller: Caller, caseId: string): Promise<CaseImage> {
      await requireOwnUnlockedCase(caller, caseId);
      return deps.images.imageOfCase(caseId);
    },

    /** The case of the caller's own unlocked attempt (another's, or one not yet unlocked: refused as `get` is). */
    async caseOfOwn(caller: Caller, id: string): Promise<string> {
      const row = await requireOwn(caller, id);
      requireUnlocked(row);
      return row.caseId;
    },

    /** A locked case (its round not begun) is not shown yet: only its place on the dashboard. */
    async get(caller: Caller, id: string): Promise<Attempt> {
      const row = await requireOwn(caller, id);
      requireUnlocked(row);
      return view(row);
    },

    async start(caller: Caller, id: string): Promise<Attempt> {
      const row = await requireOwn(caller, id);
      requireUnlocked(row);
      requirePublished(row);
      requireOpen(row);
      await guards.requireStartSurveyAnswered(row);
      if (!(await attempts.start(id, deps.clock.now()))) throw notPublished();
      const started = (await attempts.find(id))!;
      // Read anyway for the view: remembered, the first answer takes the one-statement path.
      checkedCases.remember(started);
      return view(started);
    },

    /**
     * Saves one answer as it is given; a submitted case cannot be re-answered. The statement
     * that saves it writes the call's audit event too (`takeCallEvent`). An attempt answered before in this process is known with its case's questions
     * (`CheckedCases`): the answer is checked against them and written in one statement
     * that re-checks every rule at the write (`saveCheckedAnswer`). When that writes
     * nothing, or the answer does not pass, or the attempt is not known, the full path runs:
     * it reads the attempt afresh and answers the precise refusal, in the same order as
     * ever (not found, not unlocked, not published, submitted, then the answer's problems).
     */
    async answer(caller: Caller, id: string, body: CaseAnswer): Promise<{ saved: true }> {
      const event = takeCallEvent();
      const known = checkedCases.lookUp(id);
      if (known && known.userId === caller.userId) {
        const checked = checkAnswers(known.questions, [body]);
        if (!checked.problems.length) {
          const against = { userId: caller.userId, caseId: known.caseId, caseVersion: known.version, today: today() };
          const saved = await attempts.saveCheckedAnswer(
            id,
            against,
            toAnswerInput(checked.answers.get(body.question_id)!),
            deps.clock.now(),
            event,
          );
          if (saved) return { saved: true };
        }
      }
      const row = await requireOwn(caller, id);
      requireUnlocked(row);
      requirePublished(row);
      if (row.status === 'COMPLETE') throw submitted();
      requireOpen(row);
      await guards.requireStartSurveyAnswered(row);
      checkedCases.remember(row);
      const checked = checkAnswers(row.questions, [body]);
      if (checked.problems.length) {
        throw validationError(
          checked.problems.map((p) => ({ ...p, field: p.field.replace(/^answers\.0\./, 'body.') })),
        );
      }
      const saved = await attempts.saveAnswer(
        id,
        toAnswerInput(checked.answers.get(body.question_id)!),
        deps.clock.now(),
        event,
      );
      if (saved === 'not-published') throw notPublished();
      if (saved === 'complete') throw submitted();
      return { saved: true };
    },

    /**
     * Submits the case when every required question is answered (else CASES_NOT_COMPLETED,
     * listing them). Scores once: submitting again answers the same result.
     */
    async submit(caller: Caller, id: string): Promise<Attempt> {
      const row = await requireOwn(caller, id);
      requireUnlocked(row);
      if (row.status !== 'COMPLETE') {
        requirePublished(row);
        requireOpen(row);
        await guards.requireStartSurveyAnswered(row);
        // The answers are read and scored under the attempt's lock (see the repository), so
        // an answer racing the submit is either in the score or refused.
        const outcome = await attempts.submit(id, deps.clock.now(), (rows) => {
          const answers = toAnswerMap(rows);
          const missing = missingRequired(row.questions, answers);
          return missing.length ? { missing } : { score: scoreAnswers(row.questions, answers).score };
        });
        if (outcome === 'not-published') throw notPublished();
        if (typeof outcome === 'object') {
          throw new AppError('CASES_NOT_COMPLETED', {
            message: 'Answer every required question before submitting.',
            details: { fields: outcome.missing },
          });
        }
      }
      return view((await attempts.find(id))!);
    },

    async stamp(caller: Caller, id: string, field: 'scoreAccessedAt' | 'finishedAt'): Promise<void> {
      const row = await requireOwn(caller, id);
      if (row.status !== 'COMPLETE') {
        throw new AppError('CASES_NOT_COMPLETED', { message: 'Submit the case first.' });
      }
      await attempts.stamp(id, field, deps.clock.now());
    },
  };
}
export type ClinicianService = ReturnType<typeof createClinicianService>;
