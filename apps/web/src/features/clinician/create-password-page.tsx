import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Paper,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { useTranslation } from '../../lib/i18n';
import { PASSWORD_MIN_LENGTH, authRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { useDeferredContractResolver } from '../../lib/deferred-contract-resolver';
import { usePasswordForm } from './password-form';
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

function Frame({ children }: { children: ReactNode }) {
  return (
    <Container size={480} py="xl" component="main" id="main">
      <Paper withBorder p="lg">
        {children}
      </Paper>
    </Container>
  );
}

function PasswordWithCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const next = usePasswordForm(
    (schemas) => schemas.passwordWithCodeBody,
    (values) => ({ code, password: values.password }),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const body = await next.checked();
    if (!body) return;
    setBusy(true);
    try {
      await call(authRoutes.setPasswordWithCode, { body }, { isLogin: true });
      // The code is spent: it leaves the address bar with this page.
      navigate('/submit-password', { replace: true, state: { byCode: true } });
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Frame>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Title order={1} size="h3">
            {t('clinician.setPasswordTitle')}
          </Title>
          <Text size="sm">{t('clinician.createPasswordHelp', { min: PASSWORD_MIN_LENGTH })}</Text>
          {next.fields}
          {error && (
            <Alert color="red" role="alert">
              {error}{' '}
              <Anchor component={Link} to="/create-password" c="red.9" size="sm">
                {t('clinician.askAgain')}
              </Anchor>
            </Alert>
          )}
          <Button type="submit" loading={busy}>
            {t('clinician.savePassword')}
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}

function AskForPasswordLink() {
  const { t } = useTranslation();
  const schema = useDeferredContractResolver<{ email: string }>((schemas) => schemas.verifyEmailBody, t);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: (values) => (values.email.trim() ? schema.validate(values) : { email: t('errors.EMAIL_REQUIRED') }),
  });
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    await schema.ready();
    if (form.validate().hasErrors) return;
    setBusy(true);
    try {
      await call(authRoutes.sendPasswordCode, { body: form.getValues() }, { isLogin: true });
      setSent(true);
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Frame>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Title order={1} size="h3">
            {t('clinician.setPasswordTitle')}
          </Title>
          <Text size="sm">{t('clinician.askForPasswordLinkHelp')}</Text>
          <TextInput
            label={t('common.email')}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {sent ? (
            <Alert color="teal" role="status">
              {t('clinician.passwordLinkSent')}
            </Alert>
          ) : (
            <Button type="submit" loading={busy}>
              {t('clinician.sendPasswordLink')}
            </Button>
          )}
          <Anchor component={Link} to="/participant/sign-in" size="sm">
            {t('clinician.backToSignIn')}
          </Anchor>
        </Stack>
      </form>
    </Frame>
  );
}

/** A signed-in participant sets a password; changing one takes the current one (a dashboard link alone does not). */
function PasswordInSession({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { passwordCreated } = useParticipantSession();
  const next = usePasswordForm(
    (schemas) => schemas.createPasswordBody,
    (values): { password: string; current_password?: string } =>
      hasPassword
        ? { password: values.password, current_password: values.current_password }
        : { password: values.password },
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const body = await next.checked();
    if (!body) return;
    setBusy(true);
    try {
      await call(authRoutes.changeParticipantPassword, { body });
      passwordCreated();
      navigate('/submit-password');
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Frame>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Title order={1} size="h3">
            {t('clinician.createPasswordTitle')}
          </Title>
          <Text size="sm">{t('clinician.createPasswordHelp', { min: PASSWORD_MIN_LENGTH })}</Text>
          {hasPassword && (
            <PasswordInput
              label={t('clinician.currentPassword')}
              autoComplete="current-password"
              required
              {...next.form.getInputProps('current_password')}
            />
          )}
          {next.fields}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy}>
            {t('clinician.savePassword')}
          </Button>
          <Anchor component={Link} to="/participant" size="sm">
            {t('clinician.backToDashboard')}
          </Anchor>
        </Stack>
      </form>
    </Frame>
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
