import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { Profession, UserRole } from './enums.js';
import { PASSWORD_MIN_LENGTH } from './auth.js';
import { userSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';
import { fieldNames } from './field-lists.js';
import {
  participantFields,
  type ParticipantFieldName,
  type ParticipantFields,
  type ParticipantFieldSpec,
} from './participant-fields.js';

export const professionLabels = {
  MD: 'Doctor of Medicine',
  DO: 'Doctor of Osteopathic Medicine',
  AS: 'Advanced practice clinician',
  MSW: 'Master of Social Work',
} as const satisfies Record<Profession, string>;

/** A user as User Management lists them. */
export const userSummary = z.object({
  id: z.string().uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: UserRole,
  client_id: z.string().uuid().nullable(),
  client_name: z.string().nullable(),
  employee_id: z.string().nullable(),
  profession: Profession.nullable(),
  created_at: z.string(),
});
export type UserSummary = z.infer<typeof userSummary>;

export const userProject = z.object({
  project_id: z.string().uuid(),
  project_name: z.string(),
  archived: z.boolean(),
  notes: z.string().nullable(),
  data_status: z.enum(['READY', 'NOT_READY']),
});

/** Every field of spec §3, with the user's projects. */
export const userDetails = userSummary.extend({
  salutation: z.string().nullable(),
  ...participantFieldReplies(),
  projects: z.array(userProject),
});
export type UserDetails = z.infer<typeof userDetails>;

export const userListQuery = listQuerySchema({
  sortable: userSortFields,
  defaultSort: [{ field: 'last_name', direction: 'ASC' }],
  filter: z.strictObject({
    role: z.union([UserRole, z.array(UserRole).min(1)]).optional(),
    client_id: z.string().uuid().optional(),
    project_id: z.string().uuid().optional(),
    /** With project_id: active or archived in that project. */
    status: z.enum(['active', 'archived']).optional(),
  }),
});
export type UserListQuery = z.output<typeof userListQuery>;
export const userPage = pagedSchema(userSummary);

/**
 * A salutation as people write one: letters, with spaces, periods, hyphens and apostrophes
 * between them ("Dr.", "Mrs", "Prof. Dr."). The one rule for every call and import that takes one.
 */
export const SALUTATION_PATTERN = /^\p{L}[\p{L} .'’-]*$/u;
export const MAX_SALUTATION = 40;
/** A mobile number: digits with spaces and + ( ) . - between them. The one rule for every call and import. */
export const MOBILE_NUMBER_PATTERN = /^\+?[\d\s().-]*\d[\d\s().-]*$/;
export const MAX_MOBILE_NUMBER = 40;
export const MOBILE_NUMBER_MESSAGE = 'Use digits, spaces and + ( ) . -';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null);
const optionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .email('INVALID_EMAIL')
  .nullish()
  .or(z.literal('').transform(() => null));

const optionalMobileNumber = optionalText(MAX_MOBILE_NUMBER).refine(
  (v) => v === null || MOBILE_NUMBER_PATTERN.test(v),
  MOBILE_NUMBER_MESSAGE,
);

/** Each kind of detail's check (participant-fields.ts names the kind). */
type ParticipantFieldRule<Spec extends ParticipantFieldSpec> = Spec['value'] extends 'email'
  ? typeof optionalEmail
  : Spec['value'] extends 'mobile'
    ? typeof optionalMobileNumber
    : ReturnType<typeof optionalText>;

function participantFieldRule(spec: ParticipantFieldSpec): z.ZodType {
  switch (spec.value) {
    case 'email':
      return optionalEmail;
    case 'mobile':
      return optionalMobileNumber;
    case 'text':
      return optionalText(spec.max);
  }
}

/** The details as an update takes them, by name. */
function participantFieldRules() {
  return Object.fromEntries(
    fieldNames(participantFields).map((name) => [name, participantFieldRule(participantFields[name])]),
  ) as { [Name in ParticipantFieldName]: ParticipantFieldRule<ParticipantFields[Name]> };
}

/** The details as User Management answers them (none set: null). */
function participantFieldReplies() {
  return Object.fromEntries(fieldNames(participantFields).map((name) => [name, z.string().nullable()])) as Record<
    ParticipantFieldName,
    z.ZodNullable<z.ZodString>
  >;
}

export const updateUserBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'EMAIL_REQUIRED').max(254).email('INVALID_EMAIL'),
  first_name: requiredText(100, 'INVALID_NAME'),
  last_name: requiredText(100, 'INVALID_LAST_NAME'),
  salutation: optionalText(MAX_SALUTATION).refine(
    (v) => v === null || SALUTATION_PATTERN.test(v),
    'INVALID_SALUTATION',
  ),
  ...participantFieldRules(),
  profession: Profession.nullish(),
  /** Superadmins only, for staff accounts: sets a new password. */
  password: z.string().min(PASSWORD_MIN_LENGTH, 'PASSWORD_TOO_SHORT').max(200).optional(),
});
export type UpdateUserBody = z.input<typeof updateUserBody>;

export const displayNameBody = z.strictObject({ display_name: z.string().trim().max(100).nullable() });
export const mobileNumberBody = z.strictObject({
  mobile_number: z
    .string()
    .trim()
    .max(MAX_MOBILE_NUMBER)
    .refine((v) => v === '' || MOBILE_NUMBER_PATTERN.test(v), MOBILE_NUMBER_MESSAGE)
    .nullable(),
});

export const assignment = z.object({
  project_id: z.string().uuid(),
  project_name: z.string(),
  season_id: z.string().uuid(),
  season_name: z.string(),
  rounds: z.array(z.number().int()),
  start_date: z.string(),
});
export type Assignment = z.infer<typeof assignment>;

export const professionsResponse = z.array(z.object({ code: Profession, label: z.string() }));
