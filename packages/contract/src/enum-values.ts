/**
 * Enumerations of the product specification, in their wire spelling: the values alone. Their
 * zod schemas are in ./enums.ts; apart, so a screen that lists the values (a filter's
 * options) does not bring zod to the browser.
 */

/**
 * Participant roles: clinicians who take cases. HALFUSER has only ever come in by a
 * dashboard link; TESTUSER results stay out of statistics.
 */
export const participantRoles = ['USER', 'HALFUSER', 'TESTUSER'] as const;

/**
 * The staff's roles as stored and signed into tokens (upper case, like every UserRole). Not
 * the wire's `staffRoles` below: the same roles spelled lower case, as `currentUser` answers.
 */
export const staffUserRoles = ['SUPERADMIN', 'ADMIN'] as const;

export const userRoles = [...staffUserRoles, ...participantRoles] as const;

/** True for the roles of the participants' side. */
export function isParticipantRole(role: string): role is (typeof participantRoles)[number] {
  return (participantRoles as readonly string[]).includes(role);
}

/** True for the roles of the administration side (superadmins and client administrators). */
export function isStaffUserRole(role: string): role is (typeof staffUserRoles)[number] {
  return (staffUserRoles as readonly string[]).includes(role);
}

/** The roles that sign in to the administration side of the app. */
export const staffRoles = ['superadmin', 'admin'] as const;

export const professions = ['MD', 'DO', 'AS', 'MSW'] as const;

export const projectStatuses = ['ACTIVE', 'ARCHIVED'] as const;
/** A participant row's data status as stored; a project with no participants reads NO_USERS. */
export const storedDataStatuses = ['READY', 'NOT_READY'] as const;
export const dataStatuses = [...storedDataStatuses, 'NO_USERS'] as const;
/**
 * A case is stored DRAFT or PUBLISHED; a published case reads as ACTIVE while the round it
 * is placed in runs.
 */
export const storedCaseStatuses = ['DRAFT', 'PUBLISHED'] as const;
export const caseStatuses = [...storedCaseStatuses, 'ACTIVE'] as const;
export const caseOrigins = ['CUSTOM', 'MODULE_LIBRARY'] as const;
export const feedbackTypes = ['PERSONALIZED_FEEDBACK', 'GENERAL_FEEDBACK'] as const;
export const questionTypes = ['MULTI_ONE', 'MULTI_MANY', 'TEXT', 'DROPDOWN', 'TYPE_AHEAD'] as const;
export const markedAsValues = ['NECESSARY', 'APPROPRIATE', 'UNNECESSARY'] as const;
/** PDF, IMAGE (JPEG or PNG) and VIDEO (MP4 or MOV) are uploads; URL and TEXT are written. */
export const resourceSourceTypes = ['PDF', 'IMAGE', 'VIDEO', 'URL', 'TEXT'] as const;
/**
 * Where a resource is attached: nowhere, to at least one active case (published, in an active
 * project), or only to inactive ones (drafts, archived projects, module libraries).
 */
export const resourceAttachmentStatuses = ['NOT_ATTACHED', 'ATTACHED_ACTIVE', 'ATTACHED_INACTIVE'] as const;
export const surveyTemplateTypes = ['START_NEW', 'START_RETURNING', 'REVIEW', 'END'] as const;
export const seasonSummaryStatuses = ['DRAFT', 'POSTED'] as const;
export const importJobKinds = ['CAP', 'PARTICIPANTS', 'ANSWER_TAGS', 'SUMMARY', 'NEW_USERS'] as const;
export const importJobStates = ['NOT_STARTED', 'RUNNING', 'COMPLETE', 'ERROR'] as const;
/** An attempt's status as stored; INCOMPLETE is read off a closed round, never stored. */
export const storedAttemptStatuses = ['NOT_STARTED', 'STARTED', 'IN_PROGRESS', 'COMPLETE'] as const;
export const progressStatuses = [...storedAttemptStatuses, 'INCOMPLETE'] as const;
export const sortDirections = ['ASC', 'DESC'] as const;
