import { useState } from 'react';
import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH, authRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { useParticipantSession } from './participant-session';

/** `/create-password`: a participant who came in by link sets a password for next time. */
export function CreatePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { state, passwordCreated } = useParticipantSession();
  // Changing an existing password takes the current one: a dashboard link alone does not.
  const hasPassword = state.status === 'signed-in' && state.user.has_password;
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (password.length < PASSWORD_MIN_LENGTH) return setError(t('errors.PASSWORD_TOO_SHORT'));
    if (password !== confirm) return setError(t('clinician.passwordsDiffer'));
    setBusy(true);
    try {
      await call(authRoutes.changeParticipantPassword, {
        body: hasPassword ? { password, current_password: current } : { password },
      });
      passwordCreated();
      navigate('/submit-password');
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" maw={480} mx="auto">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Title order={2} size="h3">
            {t('clinician.createPasswordTitle')}
          </Title>
          <Text size="sm">{t('clinician.createPasswordHelp', { min: PASSWORD_MIN_LENGTH })}</Text>
          {hasPassword && (
            <PasswordInput
              label={t('clinician.currentPassword')}
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
            />
          )}
          <PasswordInput
            label={t('clinician.newPassword')}
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <PasswordInput
            label={t('clinician.confirmPassword')}
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
          />
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
    </Paper>
  );
}

/** `/submit-password`: the password is saved. */
export function PasswordSavedPage() {
  const { t } = useTranslation();
  return (
    <Alert color="teal" title={t('clinician.passwordSavedTitle')} maw={480} mx="auto">
      {t('clinician.passwordSaved')}{' '}
      <Anchor component={Link} to="/participant">
        {t('clinician.backToDashboard')}
      </Anchor>
    </Alert>
  );
}
