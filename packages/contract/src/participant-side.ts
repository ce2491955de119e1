import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from './auth.js';
import { caseAnswer, caseForParticipant, questionFeedback } from './case-answers.js';
import { FeedbackType, ParticipantRole, ProgressStatus } from './enums.js';
import { postedSeasonSummary } from './season-summaries.js';

/**
 * The participants' side: clinicians sign in (with a password, or through a signed
 * dashboard link), see their dashboard, and take their cases round by round.
 */

export const participantUser = z.object({
  id: z.string().uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: ParticipantRole,
  /** False for a participant who has only ever come in by link (they may create one). */
  has_password: z.boolean(),
});
export type ParticipantUser = z.infer<typeof participantUser>;

export const participantLoginResponse = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  user: participantUser,
});
export type ParticipantLoginResponse = z.infer<typeof participantLoginResponse>;

/** Signing in through a dashboard link: the token from `/participant/link/{token}`. */
export const linkLoginBody = z.strictObject({ token: z.string().min(10).max(2000) });
export const createPasswordBody = z.strictObject({
  password: z.string().min(PASSWORD_MIN_LENGTH, 'PASSWORD_TOO_SHORT').max(200),
  /** Required when the account already has a password. */
  current_password: z.string().max(200).optional(),
});
export const verifyEmailBody = z.strictObject({ email: z.string().trim().toLowerCase().min(1).max(254) });

/** A password set with the single-use code of an emailed link (no session). */
export const passwordWithCodeBody = z.strictObject({
  code: z.string().min(1).max(200),
  password: z.string().min(PASSWORD_MIN_LENGTH, 'PASSWORD_TOO_SHORT').max(200),
});

export const AttemptStatus = ProgressStatus.exclude(['INCOMPLETE']);
export type AttemptStatusValue = z.infer<typeof AttemptStatus>;

/** One of a participant's cases as the dashboard lists it. */
export const dashboardCase = z.object({
  id: z.string().uuid(),
  case_name: z.string(),
  patient_name: z.string(),
  season_name: z.string(),
  round_number: z.number().int(),
  unlocks_on: z.string(),
  unlocked: z.boolean(),
  /** The last day of the case's season (its last round's end date): after it, no new answers. */
  closes_on: z.string().nullable(),
  /** The season has ended: the case is read-only (with its result, if it was submitted). */
  closed: z.boolean(),
  status: AttemptStatus,
  score: z.number().int().nullable(),
});
export type DashboardCase = z.infer<typeof dashboardCase>;

export const dashboardProject = z.object({
  project_id: z.string().uuid(),
  project_name: z.string(),
  /** The season and round running today, if any. */
  season_name: z.string().nullable(),
  round_number: z.number().int().nullable(),
  round_end_date: z.string().nullable(),
  cases_unlocked: z.number().int(),
  pending_case_count: z.number().int(),
  next_case: dashboardCase.nullable(),
  cases: z.array(dashboardCase),
  key_takeaways: z.array(z.object({ case_name: z.string(), items: z.array(z.string()) })),
  cmes: z.array(
    z.object({
      id: z.string().uuid(),
      min_cases: z.number().int(),
      credits: z.number(),
      moc: z.boolean(),
      completed_cases: z.number().int(),
    }),
  ),
  /** The posted Season Results Summaries of the project's seasons this participant completed. */
  season_summaries: z.array(postedSeasonSummary),
});
export type DashboardProject = z.infer<typeof dashboardProject>;
export const dashboard = z.object({ user: participantUser, projects: z.array(dashboardProject) });
export type Dashboard = z.infer<typeof dashboard>;

export const storedAnswer = z.object({
  question_id: z.string().uuid(),
  choice_ids: z.array(z.string().uuid()),
  text: z.string().nullable(),
  none_of_below: z.boolean(),
});

/** A participant's score and feedback for a submitted case. */
export const attemptResult = z.object({
  score: z.number().int(),
  feedback_type: FeedbackType,
  questions: z.array(questionFeedback),
  explanation: z.string(),
  references: z.string(),
  test_results: z.string(),
  key_takeaways: z.array(z.string()),
});
export type AttemptResult = z.infer<typeof attemptResult>;

/** A UserSeasonRoundCase as its participant works on it. */
export const attempt = z.object({
  id: z.string().uuid(),
  project_id: z.string().uuid(),
  status: AttemptStatus,
  unlocks_on: z.string(),
  /** The last day of the case's season; after it the case is closed to new answers. */
  closes_on: z.string().nullable(),
  /** The season has ended (an administrator may extend its last round to reopen it). */
  closed: z.boolean(),
  case: caseForParticipant,
  answers: z.array(storedAnswer),
  /** Present once the case is submitted. */
  result: attemptResult.nullable(),
  /** The participant's next case after this one, for "go on". */
  next_case_id: z.string().uuid().nullable(),
});
export type Attempt = z.infer<typeof attempt>;

export const answerBody = caseAnswer.omit({ question_id: true }).extend({ question_id: z.string().uuid() });

/** An administrator's view of one participant's progress in a project. */
export const participantProgress = z.object({
  user_id: z.string().uuid(),
  project_id: z.string().uuid(),
  completed: z.number().int(),
  total: z.number().int(),
  cases: z.array(dashboardCase),
});
export type ParticipantProgress = z.infer<typeof participantProgress>;
