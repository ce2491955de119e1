import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import type { LoginResponse, SecondFactorChallenge } from '@pss/contract';
import { useTranslation } from '../../../lib/i18n';
import '../../../lib/i18n/second-factor';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { passkeysSupported, signInWithPasskey, verifyCode } from './second-factor-api';

/**
 * The sign-in's second step: the authenticator app's code, a recovery code, or a passkey.
 * Loaded only when a sign-in asks for it.
 */
export default function SecondFactorStep(props: {
  step: SecondFactorChallenge;
  onSignedIn(session: LoginResponse): void;
  onBack(): void;
}) {
  const { t } = useTranslation();
  const { methods, mfa_token: token } = props.step;
  const [recovery, setRecovery] = useState(!methods.includes('totp'));
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const canUseCode = methods.includes('totp') || methods.includes('recovery');

  async function attempt(signIn: () => Promise<LoginResponse>, failure?: string) {
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await signIn());
    } catch (caught) {
      // A passkey prompt dismissed is not an API error: say what happened in plain words.
      setError(failure && !(caught instanceof ApiError) ? failure : errorMessage(caught, t));
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void attempt(() => verifyCode(token, code.trim()));
  }

  return (
    <Stack>
      <Title order={2} size="h3">
        {t('mfa.title')}
      </Title>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {canUseCode && (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <Text size="sm">{recovery ? t('mfa.recoveryIntro') : t('mfa.codeIntro')}</Text>
            <TextInput
              key={recovery ? 'recovery' : 'app'}
              label={recovery ? t('mfa.recoveryLabel') : t('mfa.codeLabel')}
              inputMode={recovery ? 'text' : 'numeric'}
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              data-autofocus
              required
            />
            <Button type="submit" loading={busy} disabled={!code.trim()}>
              {t('mfa.verify')}
            </Button>
            {methods.includes('totp') && methods.includes('recovery') && (
              <Anchor component="button" type="button" size="sm" onClick={() => setRecovery(!recovery)}>
                {recovery ? t('mfa.useApp') : t('mfa.useRecovery')}
              </Anchor>
            )}
          </Stack>
        </form>
      )}
      {methods.includes('webauthn') && passkeysSupported() && (
        <Button
          variant="light"
          loading={busy}
          onClick={() => void attempt(() => signInWithPasskey(token), t('mfa.passkeyFailed'))}
        >
          {t('mfa.usePasskey')}
        </Button>
      )}
      <Anchor component="button" type="button" size="sm" onClick={props.onBack}>
        {t('mfa.back')}
      </Anchor>
    </Stack>
  );
}
