/**
 * The fields each list may be sorted by (`?sort=name:ASC`), apart from the lists' schemas so
 * that a list screen reads its sortable columns without bringing zod and the schemas of
 * the dialogs it opens.
 */
import { clientFields } from './client-fields.js';
import { sortableFields } from './field-lists.js';

// cases
export const caseSortFields = ['name', 'patient_name', 'status', 'updated_at', 'created_at'] as const;
export const casePreviewSortFields = ['completed_at', 'score', 'name'] as const;
export const caseFeedbackSortFields = ['position'] as const;

// clients: the sortable ones of client-fields.ts, then the times
export const clientSortFields = sortableFields(clientFields, 'updated_at', 'created_at');
export const activeSeasonSortFields = ['client_name', 'project_name', 'season_name', 'start_date', 'end_date'] as const;

// cmes
export const cmeSortFields = ['min_cases', 'credits', 'updated_at', 'created_at'] as const;

// elements
export const caseElementsSortFields = ['case_name'] as const;

// emails
export const emailDeliverySortFields = ['queued_at', 'scheduled_for', 'status'] as const;

// module-library
export const moduleSortFields = ['name', 'case_count', 'updated_at', 'created_at'] as const;
export const associatedProjectSortFields = ['name', 'client_name'] as const;

// participants
export const participantSortFields = ['name', 'email', 'added_at'] as const;

// projects
export const projectSortFields = ['name', 'status', 'client_name', 'updated_at', 'created_at'] as const;
export const catalogueSortFields = ['name'] as const;

// resources
export const resourceSortFields = ['name', 'source_type', 'created_at', 'updated_at'] as const;

// statistics
export const participantStatisticsSortFields = ['name', 'email', 'progress', 'average_score'] as const;

// surveys
export const surveyTemplateSortFields = ['name', 'type', 'updated_at', 'created_at'] as const;

// users
export const userSortFields = ['last_name', 'first_name', 'email', 'role', 'created_at'] as const;

// certificates
export const certificateSortFields = ['issued_at', 'participant_name', 'credits'] as const;
