import { lazy, Suspense, type ReactNode } from 'react';
import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import i18n from '../lib/i18n';
import { TOAST_AUTO_CLOSE_MS } from '../lib/toasts';

export const theme = createTheme({
  primaryColor: 'blue',
  // White on blue-6 is 3.6:1; blue-8 passes WCAG AA (4.8:1) for button text.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // Plain objects, not Modal.extend(…): importing Modal for its typed `extend` would put the
  // dialog, its scroll area and Floating UI into every screen's first download.
  components: {
    // Every dialog's close button needs a name for screen readers.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
    // And every toast's.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
  },
});

/**
 * Mantine's default "dimmed" grey and its error red (red-6, 3.3:1) are below WCAG AA contrast
 * on white; gray-7 and red-8 pass.
 */
const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7], '--mantine-color-error': t.colors.red[8] },
  dark: {},
});

/**
 * The toasts' container (and its transitions) arrives after the first paint: no screen has
 * a toast to show before then, and one raised earlier waits in the notifications store.
 */
const Notifications = lazy(async () => ({ default: (await import('../lib/notifications')).Notifications }));

/** What every screen stands on: the theme and the toasts (TanStack Query: lib/query-provider.tsx). */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Suspense fallback={null}>
        <Notifications position="bottom-right" autoClose={TOAST_AUTO_CLOSE_MS} />
      </Suspense>
      {children}
    </MantineProvider>
  );
}
