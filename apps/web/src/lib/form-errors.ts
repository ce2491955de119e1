import type { z } from 'zod';
import type { TFunction } from './i18n';
import { isErrorCode } from '@pss/contract';
import { ApiError, errorMessage } from './api-error';

export type FieldErrors = Record<string, string>;

/** The part of a `useForm` form that takes messages beside its fields. */
interface FormWithErrors {
  setErrors(errors: FieldErrors): void;
}

/** A message for one field: schemas may name a catalogue code as their message. */
function fieldMessage(message: string, translate: TFunction): string {
  return isErrorCode(message) ? translate(`errors.${message}`) : message;
}

/** Zod issues keyed by field path (`seasons.0.rounds.1.start_date`), as the form shows them. */
export function zodFieldErrors(error: z.ZodError, translate: TFunction): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    errors[key] ??= fieldMessage(issue.message, translate);
  }
  return errors;
}

/**
 * A `useForm` validator from a contract schema, so the browser checks what the server
 * checks. `toBody` turns the form's values into the request body (trimmed, '' as null)
 * when they differ; messages that are catalogue codes are translated.
 */
export function contractResolver<Values>(
  schema: z.ZodType,
  translate: TFunction,
  toBody: (values: Values) => unknown = (values) => values,
): (values: Values) => FieldErrors {
  return (values) => {
    const checked = schema.safeParse(toBody(values));
    return checked.success ? {} : zodFieldErrors(checked.error, translate);
  };
}

/**
 * Splits a failed save into messages beside fields (a VALIDATION_ERROR's fields, or a
 * code that belongs to one field) and one message for the form.
 */
export function saveErrors(
  error: unknown,
  translate: TFunction,
  fieldOfCode: Partial<Record<string, string>> = {},
): { fields: FieldErrors; form: string | null } {
  if (error instanceof ApiError) {
    if (error.errorCode === 'VALIDATION_ERROR') {
      const details =
        (error.details as { fields?: { field: string; message: string; errorCode?: string }[] } | undefined)?.fields ??
        [];
      const fields: FieldErrors = {};
      for (const d of details) {
        const key = d.field.replace(/^(body|querystring|params)\.?/, '');
        fields[key || 'form'] ??=
          d.errorCode && isErrorCode(d.errorCode) ? translate(`errors.${d.errorCode}`) : d.message;
      }
      const { form, ...rest } = fields;
      return { fields: rest, form: form ?? (Object.keys(rest).length ? null : errorMessage(error, translate)) };
    }
    const field = fieldOfCode[error.errorCode];
    if (field) return { fields: { [field]: errorMessage(error, translate) }, form: null };
  }
  return { fields: {}, form: errorMessage(error, translate) };
}

/**
 * Puts a failed save's field messages onto the form (`form.setErrors`) and answers the
 * message for the whole form, if any: the one way server errors reach a form's fields.
 */
export function showSaveErrors(
  form: FormWithErrors,
  error: unknown,
  translate: TFunction,
  fieldOfCode: Partial<Record<string, string>> = {},
): string | null {
  const { fields, form: message } = saveErrors(error, translate, fieldOfCode);
  form.setErrors(fields);
  return message;
}

/** The message for a list field (catalogue names): its own, or the first of its items' (`disease_types.0`). */
export function listFieldError(errors: Record<string, unknown>, path: string): string | undefined {
  const key = Object.keys(errors).find((k) => k === path || k.startsWith(`${path}.`));
  return key === undefined ? undefined : String(errors[key]);
}
