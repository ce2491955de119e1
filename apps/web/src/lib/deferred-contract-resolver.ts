import { useCallback, useEffect, useRef } from 'react';
import type { z } from 'zod';
import type { TFunction } from './i18n';
import { contractResolver, type FieldErrors } from './form-errors';
import type * as formSchemas from './form-schemas';

type FormSchemas = typeof formSchemas;

let loading: Promise<FormSchemas> | undefined;

/** The form schemas, fetched once for every editor; a failed fetch is tried again next time. */
function loadFormSchemas(): Promise<FormSchemas> {
  loading ??= import('./form-schemas').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * `contractResolver` (./form-errors.ts) for an editor's first screen: the same checks, with
 * the schema fetched after the editor has painted rather than before. `validate` goes to
 * `useForm`; until the schema is here it finds nothing wrong. A save awaits `ready()` first,
 * so the form is checked as before; if the schema cannot be fetched (the network is gone)
 * `ready()` still settles and the server's answer marks the fields instead (showSaveErrors).
 */
export function useDeferredContractResolver<Values>(
  pick: (schemas: FormSchemas) => z.ZodType,
  translate: TFunction,
): { validate: (values: Values) => FieldErrors; ready: () => Promise<void> } {
  const schema = useRef<z.ZodType | null>(null);
  // The picker is the caller's constant; the first one given is the one used.
  const picker = useRef(pick);
  const ready = useCallback(async () => {
    if (schema.current) return;
    try {
      schema.current = picker.current(await loadFormSchemas());
    } catch {
      // Left to the server's checks.
    }
  }, []);
  useEffect(() => {
    void ready();
  }, [ready]);
  const validate = useCallback(
    (values: Values): FieldErrors =>
      schema.current ? contractResolver<Values>(schema.current, translate)(values) : {},
    [translate],
  );
  return { validate, ready };
}
