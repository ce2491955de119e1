import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import type { LoginResponse, SecondFactorEnrolled, SecondFactorEnrolmentRequired } from '@pss/contract';
import { useTranslation } from '../../../lib/i18n';
import '../../../lib/i18n/second-factor';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { AppSetUp } from './app-set-up';
import { RecoveryCodes } from './recovery-codes';
import { addPasskey, passkeysSupported } from './second-factor-api';

type Way = 'app' | 'passkey';

/**
 * The sign-in of a member whose role must have a second factor and has none: they set one up
 * (an authenticator app, or a passkey on this device), save their recovery codes, and are in.
 * Loaded only when a sign-in asks for it.
 */
export default function EnrolmentStep(props: {
  step: SecondFactorEnrolmentRequired;
  onSignedIn(session: LoginResponse): void;
  onBack(): void;
}) {
  const { t } = useTranslation();
  const token = props.step.mfa_token;
  const [way, setWay] = useState<Way>('app');
  const [done, setDone] = useState<SecondFactorEnrolled | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function finish(result: SecondFactorEnrolled) {
    if (result.recovery_codes.length > 0) setDone(result);
    else if (result.session) props.onSignedIn(result.session);
  }

  async function withPasskey() {
    setBusy(true);
    setError(null);
    try {
      finish(await addPasskey(t('mfa.passkeyNameDefault'), token));
    } catch (caught) {
      setError(caught instanceof ApiError ? errorMessage(caught, t) : t('mfa.passkeyFailed'));
      setBusy(false);
    }
  }

  if (done) {
    return <RecoveryCodes codes={done.recovery_codes} onDone={() => done.session && props.onSignedIn(done.session)} />;
  }
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('mfa.enrolTitle')}
      </Title>
      <Text size="sm">{t('mfa.enrolIntro')}</Text>
      {passkeysSupported() && (
        <Button.Group aria-label={t('mfa.enrolTitle')}>
          {(['app', 'passkey'] as const).map((choice) => (
            <Button
              key={choice}
              variant={way === choice ? 'filled' : 'default'}
              aria-pressed={way === choice}
              onClick={() => setWay(choice)}
              fullWidth
            >
              {choice === 'app' ? t('mfa.chooseApp') : t('mfa.choosePasskey')}
            </Button>
          ))}
        </Button.Group>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {way === 'app' ? (
        <AppSetUp token={token} onDone={finish} />
      ) : (
        <Button loading={busy} onClick={() => void withPasskey()}>
          {t('mfa.addPasskey')}
        </Button>
      )}
      <Anchor component="button" type="button" size="sm" onClick={props.onBack}>
        {t('mfa.back')}
      </Anchor>
    </Stack>
  );
}
