import { lazy, Suspense, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Button, Container, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { Navigate, useSearchParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import type { Halfway } from './second-factor/sign-in-steps';
import { useSession } from '../../lib/session/session-provider';
import { errorMessage } from '../../lib/api-error';
import { landingPathFor, PROVIDER_SIGN_IN_URL, type StaffSignInFlow } from '../../lib/session/auth-api';
import { SiteFooter } from '../../components/site-footer';
import { SegmentedChoice } from '../../components/segmented-choice';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// The second step's screens and the passkey code come when a sign-in needs them, not with the form.
const signInSteps = () => import('./second-factor/sign-in-steps');
const HalfwaySignIn = lazy(signInSteps);

/** Only paths inside this app may be returned to after sign-in. */
function safeNext(next: string | null): string | null {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : null;
}

/** The two staff sign-in flows of spec §1: client administrator and provider employee. */
export function LoginLandingPage() {
  const { t } = useTranslation();
  const { state, signIn, completeSignIn, settings } = useSession();
  const [halfway, setHalfway] = useState<Halfway | null>(null);
  const [params] = useSearchParams();
  const [flow, setFlow] = useState<StaffSignInFlow>(
    params.get('flow') === 'provider-employee' ? 'provider-employee' : 'client-administrator',
  );
  // Two fields checked on submit need no form library, which the first screen would otherwise
  // download (docs/benchmarks.md, "Figures behind the code"). Only presence and shape are checked here: a wrong password of any
  // length is just wrong. A field's message goes as soon as it is edited.
  const [values, setValues] = useState({ email: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const field = (name: 'email' | 'password') => ({
    value: values[name],
    error: fieldErrors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setFieldErrors((current) => ({ ...current, [name]: undefined }));
    },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  // Signed in (now, or already): go where the person was headed, or to their landing page.
  if (state.status === 'signed-in') {
    return <Navigate to={safeNext(params.get('next')) ?? landingPathFor(state.user)} replace />;
  }

  // Client administrators may come in through their organisation's identity provider, and
  // with ADMIN_PASSWORD_LOGIN=false only that way (the server refuses their password too).
  const forAdministrators = flow === 'client-administrator';
  const providerOffered = forAdministrators && Boolean(settings?.oidc_enabled);
  const passwordOffered = !forAdministrators || settings?.admin_password_login !== false;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const email = values.email.trim();
    const errors = {
      email: !email ? t('validation.required') : EMAIL_PATTERN.test(email) ? undefined : t('validation.email'),
      password: values.password ? undefined : t('validation.required'),
    };
    setFieldErrors(errors);
    if (!errors.email && !errors.password) void submit(email, values.password);
  }

  async function submit(email: string, password: string) {
    setSubmitting(true);
    try {
      const answer = await signIn(flow, email, password);
      if (!('access_token' in answer)) {
        setHalfway(answer);
        setSubmitting(false);
      }
    } catch (error) {
      setFormError(errorMessage(error, t));
      setSubmitting(false);
    }
  }

  async function signInWithPasskey() {
    setFormError(null);
    setSubmitting(true);
    const steps = await signInSteps();
    try {
      completeSignIn(await steps.signInWithPasskey());
    } catch (error) {
      setFormError(steps.passkeyFailure(error));
      setSubmitting(false);
    }
  }

  if (halfway) {
    const back = () => setHalfway(null);
    return (
      <Container size={440} py={64}>
        <Paper withBorder shadow="sm" p="lg" mt="lg" radius="md">
          {/* Words, not Mantine's Loader: its variants would weigh on the sign-in form's first download. */}
          <Suspense fallback={<Text c="dimmed">{t('app.loading')}</Text>}>
            <HalfwaySignIn halfway={halfway} onSignedIn={completeSignIn} onBack={back} />
          </Suspense>
        </Paper>
        <SiteFooter />
      </Container>
    );
  }

  return (
    <Container size={440} py={64}>
      <Title order={1} ta="center" size="h2">
        {t('app.title')}
      </Title>
      <Text ta="center" c="dimmed" mt="xs" id="flow-label">
        {t('auth.chooseFlow')}
      </Text>
      <Paper withBorder shadow="sm" p="lg" mt="lg" radius="md">
        <form onSubmit={onSubmit} noValidate aria-labelledby="flow-label">
          <Stack>
            <SegmentedChoice<StaffSignInFlow>
              value={flow}
              onChange={setFlow}
              aria-label={t('auth.chooseFlow')}
              data={[
                { value: 'client-administrator', label: t('auth.clientAdministrator') },
                { value: 'provider-employee', label: t('auth.providerEmployee') },
              ]}
            />
            <Text size="sm" c="dimmed">
              {flow === 'client-administrator' ? t('auth.clientAdministratorHint') : t('auth.providerEmployeeHint')}
            </Text>
            {providerOffered && (
              <Button
                component="a"
                href={PROVIDER_SIGN_IN_URL}
                variant={passwordOffered ? 'light' : 'filled'}
                fullWidth
              >
                {t('auth.signInWithOrganisation')}
              </Button>
            )}
            {providerOffered && passwordOffered && <Divider label={t('auth.orWithPassword')} labelPosition="center" />}
            {passwordOffered && (
              <>
                {formError && (
                  <Alert color="red" role="alert">
                    {formError}
                  </Alert>
                )}
                <TextInput
                  label={t('common.email')}
                  type="email"
                  autoComplete="username"
                  {...field('email')}
                  required
                />
                <PasswordInput
                  label={t('common.password')}
                  autoComplete="current-password"
                  {...field('password')}
                  required
                />
                <Button type="submit" loading={submitting} fullWidth>
                  {t('common.signIn')}
                </Button>
                {typeof window.PublicKeyCredential === 'function' && (
                  <Button variant="subtle" fullWidth disabled={submitting} onClick={() => void signInWithPasskey()}>
                    {t('auth.signInWithPasskey')}
                  </Button>
                )}
              </>
            )}
          </Stack>
        </form>
      </Paper>
      <SiteFooter />
    </Container>
  );
}
