import { z } from 'zod';

/** Enumerations of the product specification, in their wire spelling. */

export const userRoles = ['SUPERADMIN', 'ADMIN', 'USER', 'HALFUSER', 'TESTUSER'] as const;
export const UserRole = z.enum(userRoles);
export type UserRole = z.infer<typeof UserRole>;

/** The roles that sign in to the administration side of the app. */
export const staffRoles = ['superadmin', 'admin'] as const;
export const StaffRole = z.enum(staffRoles);
export type StaffRole = z.infer<typeof StaffRole>;

/** Participant roles: clinicians who take cases. TESTUSER results stay out of statistics. */
export const participantRoles = ['USER', 'HALFUSER', 'TESTUSER'] as const;
export type ParticipantRole = (typeof participantRoles)[number];

export const Profession = z.enum(['MD', 'DO', 'AS', 'MSW']);
export type Profession = z.infer<typeof Profession>;

export const ProjectStatus = z.enum(['ACTIVE', 'ARCHIVED']);
export const DataStatus = z.enum(['READY', 'NOT_READY', 'NO_USERS']);
export const CaseStatus = z.enum(['DRAFT', 'PUBLISHED', 'ACTIVE']);
export const CaseOrigin = z.enum(['CUSTOM', 'MODULE_LIBRARY']);
export const FeedbackType = z.enum(['PERSONALIZED_FEEDBACK', 'GENERAL_FEEDBACK']);
export const QuestionType = z.enum(['MULTI_ONE', 'MULTI_MANY', 'TEXT', 'DROPDOWN', 'TYPE_AHEAD']);
export const MarkedAs = z.enum(['NECESSARY', 'APPROPRIATE', 'UNNECESSARY']);
export const ResourceSourceType = z.enum(['PDF', 'IMAGE', 'URL', 'TEXT']);
export const SurveyTemplateType = z.enum(['START_NEW', 'START_RETURNING', 'REVIEW', 'END']);
export const SeasonSummaryStatus = z.enum(['DRAFT', 'POSTED']);
export const EmailSendMode = z.enum(['AUTOMATIC', 'MANUAL']);
export const EmailType = z.enum([
  'initial',
  'reminder',
  'last_day_of_round',
  'new_round',
  'last_round',
  'summary_launch',
  'summary_reminder',
]);
export const ImportJobKind = z.enum(['CAP', 'PARTICIPANTS', 'ANSWER_TAGS', 'SUMMARY', 'NEW_USERS']);
export const ImportJobState = z.enum(['NOT_STARTED', 'RUNNING', 'COMPLETE', 'ERROR']);
export const ProgressStatus = z.enum(['NOT_STARTED', 'STARTED', 'IN_PROGRESS', 'COMPLETE', 'INCOMPLETE']);
export const SortDirection = z.enum(['ASC', 'DESC']);
export type SortDirection = z.infer<typeof SortDirection>;
