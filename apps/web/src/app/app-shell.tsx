import { AppShell, Anchor, Box, Button, Group, ScrollArea, Text, Title, UnstyledButton } from '@mantine/core';
import { NavLink, Outlet, Link } from '../lib/router';
import { useTranslation } from '../lib/i18n';
import type { CurrentUser } from '@pss/contract';
import { useSession } from '../lib/session/session-provider';
import classes from './app-shell.module.css';
import { SiteFooter } from '../components/site-footer';

/** The five superadmin tabs (spec §2); client administrators see none. */
export const superadminTabs = [
  { to: '/project-management', labelKey: 'tabs.projectManagement' },
  { to: '/user-management', labelKey: 'tabs.userManagement' },
  { to: '/survey-templates', labelKey: 'tabs.surveyTemplates' },
  { to: '/resource-library', labelKey: 'tabs.resourceLibrary' },
  { to: '/module-library', labelKey: 'tabs.moduleLibrary' },
] as const;

export function SignedInShell({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const { signOut } = useSession();
  const name = `${user.first_name} ${user.last_name}`.trim() || user.email;
  return (
    <AppShell header={{ height: user.role === 'superadmin' ? 104 : 60 }} padding="md">
      <AppShell.Header>
        <a href="#main" className={classes.skipLink}>
          {t('app.skipToContent')}
        </a>
        <Group h={60} px="md" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" underline="never" c="inherit">
            <Title order={1} size="h4">
              {t('app.title')}
            </Title>
          </Anchor>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="xs" data-testid="signed-in-as">
              {t('app.signedInAs', { name })}
            </Text>
            <Button variant="default" size="xs" onClick={() => void signOut('user')}>
              {t('app.signOut')}
            </Button>
          </Group>
        </Group>
        {user.role === 'superadmin' && (
          <ScrollArea type="never">
            <Box component="nav" aria-label="Main" px="md" className={classes.tabs}>
              {superadminTabs.map((tab) => (
                <UnstyledButton
                  key={tab.to}
                  component={NavLink}
                  to={tab.to}
                  className={classes.tab}
                  data-testid="main-tab"
                >
                  {t(tab.labelKey)}
                </UnstyledButton>
              ))}
            </Box>
          </ScrollArea>
        )}
      </AppShell.Header>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
      {/* Outside main: a page's footer landmark sits at the top level. */}
      <SiteFooter />
    </AppShell>
  );
}
