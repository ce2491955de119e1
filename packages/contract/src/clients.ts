import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { activeSeasonSortFields, clientSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';
import {
  clientFields,
  type ClientFieldName,
  type ClientFields,
  type ClientFieldSpec,
  type ClientFieldsOfValue,
} from './client-fields.js';
import { fieldNames } from './field-lists.js';

export const idParams = z.object({ id: z.string().uuid() });

/** The longest support phone a client or project may set. */
export const SUPPORT_PHONE_MAX = 60;

/** Control and format characters (a newline, a tab, a zero-width or direction mark): never in a phone number. */
const unprintable = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * The support contact an email's `{email}` and `{phone}` name (a client's, or a project's
 * override). '' or null: none set, so the next one down is used (the client's, then the
 * server's SUPPORT_EMAIL / SUPPORT_PHONE). Left out of an update: unchanged.
 */
export const supportContactFields = {
  support_email: z
    .string()
    .trim()
    .max(254, 'INVALID_EMAIL')
    .refine((value) => value === '' || z.email().safeParse(value).success, 'INVALID_EMAIL')
    .transform((value) => value || null)
    .nullish(),
  support_phone: z
    .string()
    .refine((value) => !unprintable.test(value), 'INVALID_PHONE')
    .trim()
    .max(SUPPORT_PHONE_MAX, 'INVALID_PHONE')
    .transform((value) => value || null)
    .nullish(),
};

/** CAP member numbers: letters, digits and dashes. */
export const CAP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/;

/** The checks of the fields whose check is their own (client-fields.ts: `value: 'own'`). */
const ownClientFieldRules = {
  name: requiredText(200, 'INVALID_NAME'),
  cap_id: z
    .string()
    .trim()
    .max(40, 'INVALID_CAP_ID')
    .regex(CAP_ID_PATTERN, 'INVALID_CAP_ID')
    .nullish()
    .or(z.literal('').transform(() => null)),
  cap_status: z.string().trim().max(100).nullish(),
} satisfies Record<ClientFieldsOfValue<'own'>, z.ZodType>;

/** An optional text: trimmed, '' or null is none. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || null)
    .nullish();

/** A field's check, as its body takes it. */
type ClientFieldRule<Name extends ClientFieldName> = ClientFields[Name]['value'] extends 'own'
  ? (typeof ownClientFieldRules)[Name & keyof typeof ownClientFieldRules]
  : ClientFields[Name]['value'] extends 'email'
    ? typeof supportContactFields.support_email
    : ClientFields[Name]['value'] extends 'phone'
      ? typeof supportContactFields.support_phone
      : ReturnType<typeof optionalText>;

function clientFieldRule(name: ClientFieldName): z.ZodType {
  // Widened on purpose: no field is 'text' today, and the next one may be.
  const spec = clientFields[name] as ClientFieldSpec;
  switch (spec.value) {
    case 'own':
      return ownClientFieldRules[name as ClientFieldsOfValue<'own'>];
    case 'email':
      return supportContactFields.support_email;
    case 'phone':
      return supportContactFields.support_phone;
    case 'text':
      return optionalText(spec.max);
  }
}

// Built from the list by name, so typed by name: each entry is the schema its spec says.
const clientFieldRules = Object.fromEntries(fieldNames(clientFields).map((name) => [name, clientFieldRule(name)])) as {
  [Name in ClientFieldName]: ClientFieldRule<Name>;
};
const clientFieldReplies = Object.fromEntries(
  fieldNames(clientFields).map((name) => {
    const spec: ClientFieldSpec = clientFields[name];
    return [name, spec.required ? z.string() : z.string().nullable()];
  }),
) as {
  [Name in ClientFieldName]: ClientFields[Name] extends { required: true } ? z.ZodString : z.ZodNullable<z.ZodString>;
};

export const client = z.object({
  id: z.string().uuid(),
  ...clientFieldReplies,
  project_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Client = z.infer<typeof client>;

export const clientListQuery = listQuerySchema({
  sortable: clientSortFields,
  defaultSort: [{ field: 'created_at', direction: 'DESC' }],
  filter: z.strictObject({ cap_status: z.string().max(100).optional() }),
});
export type ClientListQuery = z.output<typeof clientListQuery>;

export const clientPage = pagedSchema(client);

export const clientBody = z.strictObject(clientFieldRules);
export type ClientBody = z.input<typeof clientBody>;

/** A CAP roster entry, as `GET /clients/cap/{capId}/status` answers it. */
export const capStatus = z.object({
  cap_id: z.string(),
  name: z.string(),
  status: z.string(),
  client_id: z.string().uuid().nullable(),
  imported_at: z.string(),
});
export type CapStatus = z.infer<typeof capStatus>;

export const capIdParams = z.object({ id: requiredText(40) });

export const activeSeason = z.object({
  client_id: z.string().uuid(),
  client_name: z.string(),
  project_id: z.string().uuid(),
  project_name: z.string(),
  season_id: z.string().uuid(),
  season_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  current_round: z.number().int().nullable(),
});
export type ActiveSeason = z.infer<typeof activeSeason>;

export const activeSeasonListQuery = listQuerySchema({
  sortable: activeSeasonSortFields,
  defaultSort: [{ field: 'end_date', direction: 'ASC' }],
  filter: z.strictObject({}),
});
export const activeSeasonPage = pagedSchema(activeSeason);
