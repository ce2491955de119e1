import { z } from 'zod';

/** Enumerations of the product specification, in their wire spelling. */

/**
 * Participant roles: clinicians who take cases. HALFUSER has only ever come in by a
 * dashboard link; TESTUSER results stay out of statistics.
 */
export const participantRoles = ['USER', 'HALFUSER', 'TESTUSER'] as const;
export const ParticipantRole = z.enum(participantRoles);
export type ParticipantRole = z.infer<typeof ParticipantRole>;

export const userRoles = ['SUPERADMIN', 'ADMIN', ...participantRoles] as const;
export const UserRole = z.enum(userRoles);
export type UserRole = z.infer<typeof UserRole>;

/** True for the roles of the participants' side. */
export function isParticipantRole(role: string): role is ParticipantRole {
  return (participantRoles as readonly string[]).includes(role);
}

/** The roles that sign in to the administration side of the app. */
export const staffRoles = ['superadmin', 'admin'] as const;
export const StaffRole = z.enum(staffRoles);
export type StaffRole = z.infer<typeof StaffRole>;

export const professions = ['MD', 'DO', 'AS', 'MSW'] as const;
export const Profession = z.enum(professions);
export type Profession = z.infer<typeof Profession>;

export const ProjectStatus = z.enum(['ACTIVE', 'ARCHIVED']);
export const DataStatus = z.enum(['READY', 'NOT_READY', 'NO_USERS']);
/**
 * A case is stored DRAFT or PUBLISHED; a published case reads as ACTIVE while the round it
 * is placed in runs.
 */
export const storedCaseStatuses = ['DRAFT', 'PUBLISHED'] as const;
export const StoredCaseStatus = z.enum(storedCaseStatuses);
export type StoredCaseStatus = z.infer<typeof StoredCaseStatus>;
export const caseStatuses = [...storedCaseStatuses, 'ACTIVE'] as const;
export const CaseStatus = z.enum(caseStatuses);
export const CaseOrigin = z.enum(['CUSTOM', 'MODULE_LIBRARY']);
export const FeedbackType = z.enum(['PERSONALIZED_FEEDBACK', 'GENERAL_FEEDBACK']);
export const QuestionType = z.enum(['MULTI_ONE', 'MULTI_MANY', 'TEXT', 'DROPDOWN', 'TYPE_AHEAD']);
export const MarkedAs = z.enum(['NECESSARY', 'APPROPRIATE', 'UNNECESSARY']);
/** PDF, IMAGE (JPEG or PNG) and VIDEO (MP4 or MOV) are uploads; URL and TEXT are written. */
export const resourceSourceTypes = ['PDF', 'IMAGE', 'VIDEO', 'URL', 'TEXT'] as const;
export const ResourceSourceType = z.enum(resourceSourceTypes);
/**
 * Where a resource is attached: nowhere, to at least one active case (published, in an active
 * project), or only to inactive ones (drafts, archived projects, module libraries).
 */
export const resourceAttachmentStatuses = ['NOT_ATTACHED', 'ATTACHED_ACTIVE', 'ATTACHED_INACTIVE'] as const;
export const ResourceAttachmentStatus = z.enum(resourceAttachmentStatuses);
export const SurveyTemplateType = z.enum(['START_NEW', 'START_RETURNING', 'REVIEW', 'END']);
export const SeasonSummaryStatus = z.enum(['DRAFT', 'POSTED']);
export const ImportJobKind = z.enum(['CAP', 'PARTICIPANTS', 'ANSWER_TAGS', 'SUMMARY', 'NEW_USERS']);
export const ImportJobState = z.enum(['NOT_STARTED', 'RUNNING', 'COMPLETE', 'ERROR']);
export const ProgressStatus = z.enum(['NOT_STARTED', 'STARTED', 'IN_PROGRESS', 'COMPLETE', 'INCOMPLETE']);
export const SortDirection = z.enum(['ASC', 'DESC']);
export type SortDirection = z.infer<typeof SortDirection>;
