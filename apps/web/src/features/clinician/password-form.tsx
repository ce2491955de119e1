import { PasswordInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/i18n';
import { useDeferredContractResolver } from '../../lib/deferred-contract-resolver';

interface PasswordValues {
  current_password: string;
  password: string;
  confirm: string;
}

/**
 * The new password twice (and the current one, to change it), checked here before any call:
 * by the contract's schema of the call's body, fetched once the page has painted, and that
 * the two agree. `checked()` answers the body to send, or null with messages beside the fields.
 */
export function usePasswordForm<Body>(
  pick: Parameters<typeof useDeferredContractResolver<Body>>[0],
  toBody: (values: PasswordValues) => Body,
) {
  const { t } = useTranslation();
  const schema = useDeferredContractResolver<Body>(pick, t);
  const form = useForm<PasswordValues>({
    mode: 'controlled',
    initialValues: { current_password: '', password: '', confirm: '' },
    validate: (values) => ({
      ...schema.validate(toBody(values)),
      ...(values.password === values.confirm ? {} : { confirm: t('clinician.passwordsDiffer') }),
    }),
  });
  const fields = (
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
  async function checked(): Promise<Body | null> {
    await schema.ready();
    return form.validate().hasErrors ? null : toBody(form.getValues());
  }
  return { form, fields, checked };
}
