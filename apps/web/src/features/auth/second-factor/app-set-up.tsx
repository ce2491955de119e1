import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Code, Group, Image, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import type { SecondFactorEnrolled, TotpEnrolment } from '@pss/contract';
import { useTranslation } from '../../../lib/i18n';
import '../../../lib/i18n/second-factor';
import { errorMessage } from '../../../lib/api-error';
import { confirmApp, startAppSetUp } from './second-factor-api';

/**
 * Setting up an authenticator app: the QR code and key from the server, then the app's first
 * code confirms it. Signed in, or half signed in (`token`) when the sign-in requires it.
 */
export function AppSetUp({ token, onDone }: { token?: string; onDone(result: SecondFactorEnrolled): void }) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Asked once: asking again replaces the key, and a second ask (React's strict mode runs an
  // effect twice) would leave the one on the screen unconfirmable.
  const asked = useRef<Promise<TotpEnrolment> | null>(null);

  useEffect(() => {
    asked.current ??= startAppSetUp(token);
    let live = true;
    asked.current.then(
      (answer) => live && setEnrolment(answer),
      (failure: unknown) => live && setError(errorMessage(failure, t)),
    );
    return () => {
      live = false;
    };
  }, [token, t]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await confirmApp(code.trim(), token));
    } catch (failure) {
      setError(errorMessage(failure, t));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack>
        <Text size="sm">{t('mfa.scanIntro')}</Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {enrolment ? (
          <Group align="flex-start" wrap="wrap">
            <Image
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
              alt={t('mfa.qrAlt')}
              w={180}
              h={180}
              bg="white"
            />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('mfa.secretLabel')}
              </Text>
              <Code data-testid="totp-secret">{enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</Code>
            </Stack>
          </Group>
        ) : (
          !error && <Skeleton h={180} w={180} />
        )}
        <TextInput
          label={t('mfa.codeLabel')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          required
        />
        <Button type="submit" loading={busy} disabled={!enrolment || code.trim().length < 6}>
          {t('mfa.confirm')}
        </Button>
      </Stack>
    </form>
  );
}
