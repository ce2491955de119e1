import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Paper, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecondFactorEnrolled } from '@pss/contract';
import { useTranslation } from '../../../lib/i18n';
import '../../../lib/i18n/second-factor';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { formatDate } from '../../../lib/format';
import { toastSuccess } from '../../../lib/toasts';
import { PageHeader } from '../../../components/page-header';
import { QueryError } from '../../../components/query-error';
import { AppSetUp } from './app-set-up';
import { RecoveryCodes } from './recovery-codes';
import {
  addPasskey,
  passkeysSupported,
  removeApp,
  removePasskey,
  renewRecoveryCodes,
  secondFactorKeys,
  secondFactorStatusQueryOptions,
} from './second-factor-api';

/** What a dialog of this page is doing: setting up the app, asking a code for an action, showing new codes. */
type Dialog =
  { kind: 'set-up' } | { kind: 'code'; action: 'remove-app' | 'new-codes' } | { kind: 'codes'; codes: string[] };

/** A staff member's own second factors: the authenticator app, passkeys and recovery codes. */
export function SecurityPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const status = useQuery(secondFactorStatusQueryOptions());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [passkeyName, setPasskeyName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: secondFactorKeys.status });

  async function run(work: () => Promise<void>, failure?: string) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(failure && !(caught instanceof ApiError) ? failure : errorMessage(caught, t));
    } finally {
      setBusy(false);
      void refresh();
    }
  }

  function appSetUp(result: SecondFactorEnrolled) {
    toastSuccess(t('security.appSetUp'));
    setDialog(result.recovery_codes.length ? { kind: 'codes', codes: result.recovery_codes } : null);
    void refresh();
  }

  const data = status.data;
  if (status.error) return <QueryError error={status.error} onRetry={() => void status.refetch()} />;
  return (
    <>
      <PageHeader title={t('security.title')} />
      <Stack maw={720}>
        <Text>{t('security.intro')}</Text>
        {data?.required && (
          <Text size="sm" c="dimmed">
            {t('security.required')}
          </Text>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {!data ? (
          <Skeleton h={320} />
        ) : (
          <>
            <FactorSection title={t('security.app')}>
              <Text size="sm">{data.totp ? t('security.appOn') : t('security.appOff')}</Text>
              <Group>
                {data.totp ? (
                  <Button variant="default" onClick={() => setDialog({ kind: 'code', action: 'remove-app' })}>
                    {t('security.removeApp')}
                  </Button>
                ) : (
                  <Button onClick={() => setDialog({ kind: 'set-up' })}>{t('security.setUpApp')}</Button>
                )}
              </Group>
            </FactorSection>
            <FactorSection title={t('security.passkeys')}>
              {data.passkeys.length === 0 ? (
                <Text size="sm">{t('security.noPasskeys')}</Text>
              ) : (
                <Table>
                  <Table.Tbody>
                    {data.passkeys.map((key) => (
                      <Table.Tr key={key.id}>
                        <Table.Td>{key.name}</Table.Td>
                        <Table.Td c="dimmed">
                          {t('security.added', { date: formatDate(key.created_at) })},{' '}
                          {key.last_used_at
                            ? t('security.lastUsed', { date: formatDate(key.last_used_at) })
                            : t('security.neverUsed')}
                        </Table.Td>
                        <Table.Td ta="right">
                          <Button
                            variant="subtle"
                            color="red"
                            size="xs"
                            aria-label={`${t('common.remove')} ${key.name}`}
                            onClick={() =>
                              void run(async () => {
                                await removePasskey(key.id);
                                toastSuccess(t('security.passkeyRemoved'));
                              })
                            }
                          >
                            {t('common.remove')}
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              {passkeysSupported() && (
                <Group align="flex-end">
                  <TextInput
                    label={t('mfa.passkeyName')}
                    placeholder={t('mfa.passkeyNameDefault')}
                    value={passkeyName}
                    maxLength={60}
                    onChange={(event) => setPasskeyName(event.currentTarget.value)}
                  />
                  <Button
                    loading={busy}
                    onClick={() =>
                      void run(async () => {
                        const name = passkeyName.trim() || t('mfa.passkeyNameDefault');
                        const added = await addPasskey(name);
                        toastSuccess(t('security.passkeyAdded', { name }));
                        setPasskeyName('');
                        if (added.recovery_codes.length) setDialog({ kind: 'codes', codes: added.recovery_codes });
                      }, t('mfa.passkeyFailed'))
                    }
                  >
                    {t('mfa.addPasskey')}
                  </Button>
                </Group>
              )}
            </FactorSection>
            <FactorSection title={t('security.recoveryCodes')}>
              <Text size="sm">{t('security.codesLeft', { count: data.recovery_codes_left })}</Text>
              {data.totp && (
                <Group>
                  <Button variant="default" onClick={() => setDialog({ kind: 'code', action: 'new-codes' })}>
                    {t('security.newCodes')}
                  </Button>
                </Group>
              )}
            </FactorSection>
          </>
        )}
      </Stack>
      <Modal opened={dialog?.kind === 'set-up'} onClose={() => setDialog(null)} title={t('security.setUpApp')}>
        {dialog?.kind === 'set-up' && <AppSetUp onDone={appSetUp} />}
      </Modal>
      <Modal opened={dialog?.kind === 'codes'} onClose={() => setDialog(null)} title={t('security.recoveryCodes')}>
        {dialog?.kind === 'codes' && <RecoveryCodes codes={dialog.codes} onDone={() => setDialog(null)} />}
      </Modal>
      {dialog?.kind === 'code' && (
        <CodeDialog
          action={dialog.action}
          onClose={() => setDialog(null)}
          onDone={(codes) => {
            void refresh();
            if (codes) setDialog({ kind: 'codes', codes });
            else {
              toastSuccess(t('security.appRemoved'));
              setDialog(null);
            }
          }}
        />
      )}
    </>
  );
}

/** One kind of factor on the page: a titled panel. */
function FactorSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={3} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** Asks a current code of the app before removing it or renewing the recovery codes. */
function CodeDialog(props: { action: 'remove-app' | 'new-codes'; onClose(): void; onDone(codes?: string[]): void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const removing = props.action === 'remove-app';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (removing) {
        await removeApp(code.trim());
        props.onDone();
      } else {
        props.onDone((await renewRecoveryCodes(code.trim())).recovery_codes);
      }
    } catch (caught) {
      setError(errorMessage(caught, t));
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={props.onClose} title={removing ? t('security.removeAppTitle') : t('security.newCodes')}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack>
          <Text size="sm">{removing ? t('security.removeAppIntro') : t('security.newCodesIntro')}</Text>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('mfa.codeLabel')}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            data-autofocus
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color={removing ? 'red' : undefined} loading={busy} disabled={code.trim().length < 6}>
              {removing ? t('security.removeApp') : t('security.newCodes')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
