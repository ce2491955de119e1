import { Anchor, Box, Button, Center, Container, Group, Loader, Text, Title } from '@mantine/core';
import { Link, Navigate, Outlet, useLocation } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { useParticipantSession } from './participant-session';
import { QueryProvider } from '../../lib/query-provider';
import { SiteFooter } from '../../components/site-footer';

/**
 * Pages that need a signed-in participant (others are sent to sign in): a plain header, one
 * readable column on a phone or a desktop.
 */
export function ParticipantLayout() {
  const { state, signOut } = useParticipantSession();
  const location = useLocation();
  if (state.status === 'anonymous') {
    return <Navigate to="/participant/sign-in" replace state={{ from: location.pathname }} />;
  }
  // While the session loads, the page's frame is already there (the title paints at once);
  // the loader stands where the page will be.
  const user = state.status === 'signed-in' ? state.user : null;
  return (
    <Box mih="100vh" bg="gray.0">
      <ParticipantHeader name={user && `${user.first_name} ${user.last_name}`} onSignOut={() => void signOut()} />
      {/* At least a screen high, so the footer starts below the fold and does not jump
          down when the page's content replaces the loader (layout shift). */}
      <Container size="md" py="lg" component="main" id="main" mih="100vh">
        {user ? (
          <QueryProvider>
            <Outlet />
          </QueryProvider>
        ) : (
          <Loading />
        )}
      </Container>
      <SiteFooter />
    </Box>
  );
}

function Loading() {
  const { t } = useTranslation();
  return (
    <Center mih="50vh" aria-busy="true">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}

/**
 * The title, and who is signed in with the sign-out button. Before the session is known the
 * second part is laid out but hidden (nor can it be focused or read), so the header keeps its height when it appears.
 */
function ParticipantHeader(props: { name: string | null; onSignOut(): void }) {
  const { t } = useTranslation();
  return (
    <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
      <Container size="md" py="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Anchor component={Link} to="/participant" underline="never" c="dark">
            <Title order={1} size="h4">
              {t('app.title')}
            </Title>
          </Anchor>
          <Group gap="sm" style={props.name === null ? { visibility: 'hidden' } : undefined}>
            <Text size="sm" c="dimmed">
              {t('app.signedInAs', { name: props.name ?? '' })}
            </Text>
            <Button variant="default" size="xs" onClick={props.onSignOut}>
              {t('app.signOut')}
            </Button>
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
