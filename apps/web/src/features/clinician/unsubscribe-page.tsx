import { useState } from 'react';
import { Alert, Anchor, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { emailUnsubscribeRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
import { strongTitle } from '../../lib/alert-contrast';
import { errorMessage } from '../../lib/api-error';
import { useTranslation } from '../../lib/i18n';
import '../../lib/i18n/account-pages';
import { Link, useSearchParams } from '../../lib/screen-router';

/**
 * `/unsubscribe?token=` (public): where a reminder's List-Unsubscribe address leads a browser
 * (`GET /api/unsubscribe/{token}` redirects here). Opening it changes nothing — mail scanners
 * and link previews open links — and its button makes the same one-click POST a mailbox
 * provider makes (RFC 8058), which stops that project's reminders to the participant.
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<{ status: 'ready' | 'busy' | 'done' } | { status: 'failed'; message: string }>({
    status: 'ready',
  });

  async function unsubscribe(): Promise<void> {
    if (!token) return;
    setState({ status: 'busy' });
    try {
      await call(
        emailUnsubscribeRoutes.oneClick,
        { params: { token }, body: { 'List-Unsubscribe': 'One-Click' } },
        { isLogin: true },
      );
      setState({ status: 'done' });
    } catch (error) {
      setState({ status: 'failed', message: errorMessage(error, t) });
    }
  }

  return (
    <Container size={520} py="xl" component="main" id="main">
      <Stack>
        <Title order={1} size="h2">
          {t('unsubscribe.title')}
        </Title>
        {state.status === 'done' ? (
          <Alert color="teal" role="status" title={t('unsubscribe.doneTitle')} styles={strongTitle('teal')}>
            {t('unsubscribe.doneBody')}
          </Alert>
        ) : (
          <>
            <Text>{token ? t('unsubscribe.body') : t('unsubscribe.noLink')}</Text>
            {state.status === 'failed' && (
              <Alert color="red" role="alert">
                {state.message}
              </Alert>
            )}
            {token && state.status !== 'failed' && (
              <Group>
                <Button onClick={() => void unsubscribe()} loading={state.status === 'busy'}>
                  {t('unsubscribe.button')}
                </Button>
              </Group>
            )}
          </>
        )}
        <Anchor component={Link} to="/participant">
          {t('unsubscribe.dashboard')}
        </Anchor>
      </Stack>
    </Container>
  );
}
