import { useState, type FormEvent, type ReactNode } from 'react';
import { Container, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useTranslation, type TFunction } from '../../lib/i18n';
import { errorMessage } from '../../lib/api-error';
import { useDeferredContractResolver } from '../../lib/deferred-contract-resolver';
import type { FieldErrors } from '../../lib/form-errors';

/**
 * A participant's form that makes one call: checked here first, by the contract's schema of
 * the call's body (fetched once the page has painted) and by the page's own `check`, with the
 * messages beside the fields; then sent, busy meanwhile, a refusal becoming the form's `error`.
 */
export function useParticipantForm<Values extends Record<string, unknown>, Body>(options: {
  initialValues: Values;
  schema: Parameters<typeof useDeferredContractResolver<Body>>[0];
  toBody(values: Values): Body;
  check?(values: Values): FieldErrors;
  send(body: Body): Promise<unknown>;
}) {
  const { t } = useTranslation();
  const schema = useDeferredContractResolver<Body>(options.schema, t);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: options.initialValues,
    validate: (values) => ({ ...schema.validate(options.toBody(values)), ...options.check?.(values) }),
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    setError(null);
    await schema.ready();
    if (form.validate().hasErrors) return;
    setBusy(true);
    try {
      await options.send(options.toBody(form.getValues()));
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };
  return { form, error, busy, onSubmit };
}

/** A participant's form on a page of its own, under its title. */
export function FormPage(props: { title: string; onSubmit(event: FormEvent): void; children: ReactNode }) {
  return (
    <Container size={480} py="xl" component="main" id="main">
      <Paper withBorder p="lg">
        <form onSubmit={props.onSubmit} noValidate>
          <Stack>
            <Title order={1} size="h3">
              {props.title}
            </Title>
            {props.children}
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}

export interface NewPasswordValues extends Record<string, unknown> {
  password: string;
  confirm: string;
}

/** The two must agree (the contract checks the password itself). */
export function passwordsAgree(values: NewPasswordValues, t: TFunction): FieldErrors {
  return values.password === values.confirm ? {} : { confirm: t('clinician.passwordsDiffer') };
}

/** The new password, twice. */
export function NewPasswordFields<Values extends NewPasswordValues>({ form }: { form: UseFormReturnType<Values> }) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordInput
        label={t('clinician.newPassword')}
        autoComplete="new-password"
        required
        {...form.getInputProps('password')}
      />
      <PasswordInput
        label={t('clinician.confirmPassword')}
        autoComplete="new-password"
        required
        {...form.getInputProps('confirm')}
      />
    </>
  );
}
