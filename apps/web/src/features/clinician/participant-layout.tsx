import { Anchor, Box, Button, Container, Group, Text, Title } from '@mantine/core';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { FullPageLoader } from '../../components/full-page-loader';
import { ParticipantSessionProvider, useParticipantSession } from './participant-session';
import { SiteFooter } from '../../components/site-footer';

/** The clinicians' side: a plain header, one readable column on a phone or a desktop. */
export function ParticipantRoot() {
  return (
    <ParticipantSessionProvider>
      <Outlet />
    </ParticipantSessionProvider>
  );
}

/** Pages that need a signed-in participant; others are sent to sign in. */
export function ParticipantLayout() {
  const { t } = useTranslation();
  const { state, signOut } = useParticipantSession();
  const location = useLocation();
  if (state.status === 'loading') return <FullPageLoader />;
  if (state.status === 'anonymous') {
    return <Navigate to="/participant/sign-in" replace state={{ from: location.pathname }} />;
  }
  return (
    <Box mih="100vh" bg="gray.0">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="md" py="sm">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Anchor component={Link} to="/participant" underline="never" c="dark">
              <Title order={1} size="h4">
                {t('app.title')}
              </Title>
            </Anchor>
            <Group gap="sm">
              <Text size="sm" c="dimmed">
                {t('app.signedInAs', { name: `${state.user.first_name} ${state.user.last_name}` })}
              </Text>
              <Button variant="default" size="xs" onClick={() => void signOut()}>
                {t('app.signOut')}
              </Button>
            </Group>
          </Group>
        </Container>
      </Box>
      <Container size="md" py="lg" component="main" id="main">
        <Outlet />
      </Container>
      <SiteFooter />
    </Box>
  );
}
