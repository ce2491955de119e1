import { useState } from 'react';
import { Alert, Anchor, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { authRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
import { strongTitle } from '../../lib/alert-contrast';
import { errorMessage } from '../../lib/api-error';
import { useTranslation } from '../../lib/i18n';
import '../../lib/i18n/account-pages';
import { Link, useSearchParams } from '../../lib/screen-router';

/**
 * `/unlock-account?token=` (public): the link mailed to an account's owner when failed sign-ins
 * locked it. The token is spent by a button, not on opening, so that a mail scanner fetching
 * the link does not use it up; then the owner signs in as before, staff or participant.
 */
export function UnlockPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<{ status: 'ready' | 'busy' | 'done' } | { status: 'failed'; message: string }>({
    status: 'ready',
  });

  async function unlock(): Promise<void> {
    if (!token) return;
    setState({ status: 'busy' });
    try {
      await call(authRoutes.unlock, { body: { token } }, { isLogin: true });
      setState({ status: 'done' });
    } catch (error) {
      setState({ status: 'failed', message: errorMessage(error, t) });
    }
  }

  return (
    <Container size={520} py="xl" component="main" id="main">
      <Stack>
        <Title order={1} size="h2">
          {t('unlock.title')}
        </Title>
        {state.status === 'done' ? (
          <Alert color="teal" role="status" title={t('unlock.doneTitle')} styles={strongTitle('teal')}>
            {t('unlock.doneBody')}
          </Alert>
        ) : (
          <>
            <Text>{token ? t('unlock.body') : t('unlock.noLink')}</Text>
            {state.status === 'failed' && (
              <Alert color="red" role="alert">
                {state.message}
              </Alert>
            )}
            {token && state.status !== 'failed' && (
              <Group>
                <Button onClick={() => void unlock()} loading={state.status === 'busy'}>
                  {t('unlock.button')}
                </Button>
              </Group>
            )}
          </>
        )}
        <Group gap="lg">
          <Anchor component={Link} to="/login-landing">
            {t('unlock.staffSignIn')}
          </Anchor>
          <Anchor component={Link} to="/participant/sign-in">
            {t('unlock.participantSignIn')}
          </Anchor>
        </Group>
      </Stack>
    </Container>
  );
}
