import { authRoutes } from '@pss/contract';
import { useState } from 'react';
import { Alert, Anchor, Button, Container, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, Navigate, useNavigate } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { useParticipantSession } from './participant-session';
import { SiteFooter } from '../../components/site-footer';

/** Participants sign in with their password, or ask for a sign-in link by email. */
export function ParticipantSignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { state, signInWithPassword } = useParticipantSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [linkSent, setLinkSent] = useState(false);
  if (state.status === 'signed-in') return <Navigate to="/participant" replace />;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await signInWithPassword(email, password);
      navigate('/participant');
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  }

  async function sendLink() {
    setError(null);
    if (!email.trim()) return setError(t('errors.EMAIL_REQUIRED'));
    try {
      await call(authRoutes.sendSignInLink, { body: { email } }, { isLogin: true });
      setLinkSent(true);
    } catch (failure) {
      setError(errorMessage(failure, t));
    }
  }

  return (
    <>
      <Container size={440} py="xl" component="main" id="main">
        <Paper withBorder p="lg">
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Stack>
              <Title order={1} size="h3">
                {t('clinician.signInTitle')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('clinician.signInHelp')}
              </Text>
              <TextInput
                label={t('common.email')}
                type="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <PasswordInput
                label={t('common.password')}
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              {error && (
                <Alert color="red" role="alert">
                  {error}
                </Alert>
              )}
              <Button type="submit" loading={busy}>
                {t('common.signIn')}
              </Button>
              {linkSent ? (
                <Alert color="teal" role="status">
                  {t('clinician.linkSent')}
                </Alert>
              ) : (
                <Anchor component="button" type="button" size="sm" onClick={() => void sendLink()}>
                  {t('clinician.emailMeALink')}
                </Anchor>
              )}
              <Anchor component={Link} to="/create-password" size="sm">
                {t('clinician.forgotPassword')}
              </Anchor>
            </Stack>
          </form>
        </Paper>
      </Container>
      <SiteFooter />
    </>
  );
}
