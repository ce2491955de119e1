import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { ParticipantRole, Profession } from './enums.js';
import { participantSortFields } from './sort-fields.js';
import { emailSuppressionReasons } from './email-suppressions.js';
import { fieldsWith } from './field-lists.js';
import { participantFields } from './participant-fields.js';

/**
 * The participant import file (the example file and the docs say the same): UTF-8 CSV,
 * comma or semicolon, optional BOM, CRLF or LF, header names matched case-insensitively
 * in any order. `user_id` is the client's own ID for the clinician. A clinician may have
 * one row per season; line numbers count the header as line 1.
 */
export const PARTICIPANT_REQUIRED_COLUMNS = [
  'user_id',
  'salutation',
  'first_name',
  'last_name',
  'email',
  'role',
  'profession',
] as const;
/** The details a file may give (participant-fields.ts), in their order. */
export const PARTICIPANT_OPTIONAL_COLUMNS = fieldsWith(participantFields, 'imported');
export const PARTICIPANT_ASSIGNMENT_COLUMNS = ['season', 'rounds', 'start_date'] as const;

export const participant = z.object({
  user_id: z.string().uuid(),
  employee_id: z.string().nullable(),
  salutation: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: ParticipantRole,
  profession: Profession.nullable(),
  data_status: z.enum(['READY', 'NOT_READY']),
  archived: z.boolean(),
  notes: z.string().nullable(),
  added_at: z.string(),
  /** Cases the participant has completed in this project. */
  completed_cases: z.number().int(),
  /**
   * Why no email goes to their address (the suppression list: a bounce, a complaint, an
   * administrator's hand), or why this project's reminders do not (their own unsubscribe);
   * null when their emails go. The export leaves it out.
   */
  email_state: z.enum(emailSuppressionReasons).nullable().optional(),
});
export type Participant = z.infer<typeof participant>;

export type ParticipantSortField = (typeof participantSortFields)[number];
export const participantFilter = z.strictObject({
  archived: z.boolean().optional(),
  data_status: z.enum(['READY', 'NOT_READY']).optional(),
  /**
   * NOT_STARTED: no case begun; IN_PROGRESS: some begun, not all complete; COMPLETE: every
   * case they have so far completed.
   */
  progress: z.enum(['NOT_STARTED', 'IN_PROGRESS', 'COMPLETE']).optional(),
  /** SUPPRESSED: an email_state is set (their address, or this project's reminders); DELIVERABLE: none. */
  email_state: z.enum(['SUPPRESSED', 'DELIVERABLE']).optional(),
});
export type ParticipantFilter = z.infer<typeof participantFilter>;
export const participantListQuery = listQuerySchema({
  sortable: participantSortFields,
  defaultSort: [{ field: 'name', direction: 'ASC' }],
  filter: participantFilter,
});
export type ParticipantListQuery = z.output<typeof participantListQuery>;
export const participantPage = pagedSchema(participant);

export const participantIdsParams = z.object({
  /** Comma-separated user ids, or `all` with a body `{ except, search, filter }`. */
  usersIds: z.string().min(1).max(20_000),
  projectId: z.string().uuid(),
});

export const allParticipantsSelection = z.strictObject({
  except: z.array(z.string().uuid()).max(10_000).default([]),
  search: z.string().trim().max(200).optional(),
  filter: participantFilter.default({}),
});

export const archiveResult = z.object({ updated: z.number().int() });

export const participantNotesBody = z.strictObject({ notes: z.string().max(10_000).nullable() });

/** The export's and the id list's query: the list's search and filter, no paging. */
export const participantExportQuery = z.object({
  search: z.string().trim().max(200).optional(),
  filter: z
    .string()
    .max(2000)
    .optional()
    .transform((raw, ctx) => {
      if (!raw) return {};
      try {
        const parsed = participantFilter.safeParse(JSON.parse(raw));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'filter must be a JSON object with archived and data_status' });
      return z.NEVER;
    }),
});

/** Which kind of the project's imports to read. */
export const importTypeQuery = z.object({
  type: z.enum(['PARTICIPANTS', 'ANSWER_TAGS', 'SUMMARY']).default('PARTICIPANTS'),
});
