import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from '../lib/screen-router';
import { useTranslation } from '../lib/i18n';
import { landingPathFor } from '../lib/session/auth-api';
import { useSession } from '../lib/session/session-provider';

export function HomePage() {
  const { t } = useTranslation();
  const { state } = useSession();
  const target = state.status === 'signed-in' ? landingPathFor(state.user) : '/login-landing';
  return (
    <Container size={640} py={96}>
      <Stack align="center" ta="center" gap="lg">
        <Title order={1}>{t('app.title')}</Title>
        <Title order={2} size="h3" fw={400} c="dimmed">
          {t('home.title')}
        </Title>
        <Text>{t('home.body')}</Text>
        <Button component={Link} to={target} size="md" loading={state.status === 'loading'}>
          {state.status === 'signed-in' ? t('home.continue') : t('home.signIn')}
        </Button>
      </Stack>
    </Container>
  );
}
