import { useEffect, useRef } from 'react';
import { Anchor, Box, Button, Group, Text, Title, UnstyledButton } from '@mantine/core';
import { NavLink, Outlet, Link } from '../lib/screen-router';
import { useTranslation } from '../lib/i18n';
import type { CurrentUser } from '@pss/contract';
import { useSession } from '../lib/session/session-provider';
import classes from './app-shell.module.css';
import scrollRow from '../components/scroll-row.module.css';
import { SiteFooter } from '../components/site-footer';

/**
 * The superadmin tabs: spec §2's five and the Audit log (issue #33). Client administrators see
 * none; their way to the Audit log is a link beside Sign out.
 */
export const superadminTabs = [
  { to: '/project-management', labelKey: 'tabs.projectManagement' },
  { to: '/user-management', labelKey: 'tabs.userManagement' },
  { to: '/survey-templates', labelKey: 'tabs.surveyTemplates' },
  { to: '/resource-library', labelKey: 'tabs.resourceLibrary' },
  { to: '/module-library', labelKey: 'tabs.moduleLibrary' },
  { to: '/audit-log', labelKey: 'audit.title' },
] as const;

/**
 * The header's height (it wraps on a phone), as `--app-shell-header-offset` on the page: an
 * editor's bar of actions sticks just below the header, not under it where it could be
 * neither seen nor clicked, and what gets focus is scrolled clear of the header
 * (`scroll-padding-top`, app-shell.module.css). Measured by a ResizeObserver, whose first
 * answer comes after layout: nothing forces a layout of its own.
 */
function useHeaderOffset() {
  const header = useRef<HTMLElement>(null);
  useEffect(() => {
    const node = header.current;
    if (!node) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(([entry]) => {
      const height = entry?.borderBoxSize[0]?.blockSize ?? node.offsetHeight;
      root.style.setProperty('--app-shell-header-offset', `${Math.ceil(height)}px`);
    });
    observer.observe(node);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--app-shell-header-offset');
    };
  }, []);
  return header;
}

export function SignedInShell({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const { signOut } = useSession();
  const header = useHeaderOffset();
  const name = `${user.first_name} ${user.last_name}`.trim() || user.email;
  return (
    // A page of its own rather than Mantine's AppShell, whose header imports a scroll-lock
    // library (react-remove-scroll) for one class name: every staff screen fetched it
    // before its first paint. The header stays in view as the page scrolls (sticky).
    <>
      <header ref={header} className={classes.header}>
        <a href="#main" className={classes.skipLink}>
          {t('app.skipToContent')}
        </a>
        {/* On a phone the links and Sign out go to a row of their own below the title, whole. */}
        <Group mih={60} px="md" py={8} gap={8} justify="space-between" wrap="wrap">
          <Anchor component={Link} to="/" underline="never" c="inherit">
            <Title order={1} size="h4">
              {t('app.title')}
            </Title>
          </Anchor>
          <Group gap="sm" wrap="nowrap" ml="auto">
            <Text size="sm" c="dimmed" visibleFrom="xs" data-testid="signed-in-as">
              {t('app.signedInAs', { name })}
            </Text>
            {user.role !== 'superadmin' && (
              <Anchor component={NavLink} to="/audit-log" size="sm" fw={500}>
                {t('audit.title')}
              </Anchor>
            )}
            <Anchor component={NavLink} to="/account/security" size="sm" fw={500}>
              {t('security.title')}
            </Anchor>
            <Button variant="default" size="xs" onClick={() => void signOut('user')}>
              {t('app.signOut')}
            </Button>
          </Group>
        </Group>
        {user.role === 'superadmin' && (
          <Box component="nav" aria-label="Main" px="md" className={`${classes.tabs} ${scrollRow.row}`}>
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
        )}
      </header>
      <Box component="main" id="main" tabIndex={-1} p="md" className={classes.main}>
        <Outlet />
      </Box>
      {/* Outside main: a page's footer landmark sits at the top level. */}
      <SiteFooter />
    </>
  );
}
