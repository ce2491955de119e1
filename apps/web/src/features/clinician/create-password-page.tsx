import { useState } from 'react';
import { Alert, Anchor, Button, Container, PasswordInput, Skeleton, Text, TextInput } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { PASSWORD_MIN_LENGTH, authRoutes } from '@pss/contract';
import { FormError } from '../../components/form-parts';
import { call } from '../../lib/api-client';
import type { FieldErrors } from '../../lib/form-errors';
import { FormPage, NewPasswordFields, passwordsAgree, useParticipantForm } from './participant-form';
import { useParticipantSession } from './participant-session';

/**
 * `/create-password` (public, spec §2): with `?code=` from an emailed link, sets the
 * password without a session; signed in (a participant who came by their dashboard link),
 * sets or changes it; otherwise asks for the emailed link.
 */
export function CreatePasswordPage() {
  const [params] = useSearchParams();
  const { state } = useParticipantSession();
  const code = params.get('code');
  if (code) return <PasswordWithCode code={code} />;
  if (state.status === 'loading') return <Skeleton h={320} maw={480} mx="auto" mt="xl" />;
  if (state.status === 'signed-in') return <PasswordInSession hasPassword={state.user.has_password} />;
  return <AskForPasswordLink />;
}

function PasswordWithCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const next = useParticipantForm({
    initialValues: { password: '', confirm: '' },
    schema: (schemas) => schemas.passwordWithCodeBody,
    toBody: (values) => ({ code, password: values.password }),
    check: (values) => passwordsAgree(values, t),
    send: async (body) => {
      await call(authRoutes.setPasswordWithCode, { body }, { isLogin: true });
      // The code is spent: it leaves the address bar with this page.
      navigate('/submit-password', { replace: true, state: { byCode: true } });
    },
  });

  return (
    <FormPage title={t('clinician.setPasswordTitle')} onSubmit={next.onSubmit}>
      <Text size="sm">{t('clinician.createPasswordHelp', { min: PASSWORD_MIN_LENGTH })}</Text>
      <NewPasswordFields form={next.form} />
      {next.error && (
        <Alert color="red" role="alert">
          {next.error}{' '}
          <Anchor component={Link} to="/create-password" c="red.9" size="sm">
            {t('clinician.askAgain')}
          </Anchor>
        </Alert>
      )}
      <Button type="submit" loading={next.busy}>
        {t('clinician.savePassword')}
      </Button>
    </FormPage>
  );
}

function AskForPasswordLink() {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const ask = useParticipantForm({
    initialValues: { email: '' },
    schema: (schemas) => schemas.verifyEmailBody,
    toBody: (values) => values,
    check: (values): FieldErrors => (values.email.trim() ? {} : { email: t('errors.EMAIL_REQUIRED') }),
    send: async (body) => {
      await call(authRoutes.sendPasswordCode, { body }, { isLogin: true });
      setSent(true);
    },
  });

  return (
    <FormPage title={t('clinician.setPasswordTitle')} onSubmit={ask.onSubmit}>
      <Text size="sm">{t('clinician.askForPasswordLinkHelp')}</Text>
      <TextInput
        label={t('common.email')}
        type="email"
        autoComplete="email"
        required
        {...ask.form.getInputProps('email')}
      />
      <FormError message={ask.error} />
      {sent ? (
        <Alert color="teal" role="status">
          {t('clinician.passwordLinkSent')}
        </Alert>
      ) : (
        <Button type="submit" loading={ask.busy}>
          {t('clinician.sendPasswordLink')}
        </Button>
      )}
      <Anchor component={Link} to="/participant/sign-in" size="sm">
        {t('clinician.backToSignIn')}
      </Anchor>
    </FormPage>
  );
}

/** A signed-in participant sets a password; changing one takes the current one (a dashboard link alone does not). */
function PasswordInSession({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { passwordCreated } = useParticipantSession();
  const next = useParticipantForm({
    initialValues: { current_password: '', password: '', confirm: '' },
    schema: (schemas) => schemas.createPasswordBody,
    toBody: (values): { password: string; current_password?: string } =>
      hasPassword
        ? { password: values.password, current_password: values.current_password }
        : { password: values.password },
    check: (values) => passwordsAgree(values, t),
    send: async (body) => {
      await call(authRoutes.changeParticipantPassword, { body });
      passwordCreated();
      navigate('/submit-password');
    },
  });

  return (
    <FormPage title={t('clinician.createPasswordTitle')} onSubmit={next.onSubmit}>
      <Text size="sm">{t('clinician.createPasswordHelp', { min: PASSWORD_MIN_LENGTH })}</Text>
      {hasPassword && (
        <PasswordInput
          label={t('clinician.currentPassword')}
          autoComplete="current-password"
          required
          {...next.form.getInputProps('current_password')}
        />
      )}
      <NewPasswordFields form={next.form} />
      <FormError message={next.error} />
      <Button type="submit" loading={next.busy}>
        {t('clinician.savePassword')}
      </Button>
      <Anchor component={Link} to="/participant" size="sm">
        {t('clinician.backToDashboard')}
      </Anchor>
    </FormPage>
  );
}

/** `/submit-password` (public): the password is saved. */
export function PasswordSavedPage() {
  const { t } = useTranslation();
  const { state } = useParticipantSession();
  const signedIn = state.status === 'signed-in';
  return (
    <Container size={480} py="xl" component="main" id="main">
      <Alert color="teal" title={t('clinician.passwordSavedTitle')}>
        {t('clinician.passwordSaved')}{' '}
        {signedIn ? (
          <Anchor component={Link} to="/participant">
            {t('clinician.backToDashboard')}
          </Anchor>
        ) : (
          <Anchor component={Link} to="/participant/sign-in">
            {t('clinician.goToSignIn')}
          </Anchor>
        )}
      </Alert>
    </Container>
  );
}
