import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { Profession, UserRole } from './enums.js';
import { PASSWORD_MIN_LENGTH } from './auth.js';
import { userSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';

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
  secondary_email: z.string().nullable(),
  mobile_number: z.string().nullable(),
  display_name: z.string().nullable(),
  npi: z.string().nullable(),
  practice_number: z.string().nullable(),
  facility: z.string().nullable(),
  specialty: z.string().nullable(),
  manager_first_name: z.string().nullable(),
  manager_last_name: z.string().nullable(),
  manager_email: z.string().nullable(),
  user_type: z.string().nullable(),
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

export const updateUserBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'EMAIL_REQUIRED').max(254).email('INVALID_EMAIL'),
  first_name: requiredText(100, 'INVALID_NAME'),
  last_name: requiredText(100, 'INVALID_LAST_NAME'),
  salutation: optionalText(MAX_SALUTATION).refine(
    (v) => v === null || SALUTATION_PATTERN.test(v),
    'INVALID_SALUTATION',
  ),
  secondary_email: optionalEmail,
  mobile_number: optionalText(MAX_MOBILE_NUMBER).refine(
    (v) => v === null || MOBILE_NUMBER_PATTERN.test(v),
    MOBILE_NUMBER_MESSAGE,
  ),
  display_name: optionalText(100),
  npi: optionalText(20),
  practice_number: optionalText(40),
  facility: optionalText(200),
  specialty: optionalText(100),
  profession: Profession.nullish(),
  manager_first_name: optionalText(100),
  manager_last_name: optionalText(100),
  manager_email: optionalEmail,
  user_type: optionalText(60),
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
