import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { MantineProvider, createTheme, type CSSVariablesResolver, type MantineColorSchemeManager } from '@mantine/core';
import i18n from '../lib/i18n';
import { hasRaisedToast, prefersReducedMotion, subscribeToFirstToast, TOAST_AUTO_CLOSE_MS } from '../lib/toasts';

export const theme = createTheme({
  primaryColor: 'blue',
  // White on blue-6 is 3.6:1; blue-8 passes WCAG AA (4.8:1) for button text.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  // A reader who asked their system for less motion gets dialogs, menus and toasts that appear
  // and go without sliding or fading (so do the browser flows: one axe scan sees what a reader sees).
  respectReducedMotion: true,
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
 * on white; gray-7 and red-8 pass. A subtle or light button under the pointer (or just
 * clicked) sat on a hover shade its own text measured 4.0:1 against; shade 1 passes.
 */
const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[8],
    '--mantine-color-blue-light-hover': t.colors.blue[1],
    '--mantine-color-red-light-hover': t.colors.red[1],
    // What a disabled field, choice or switch shows (an active case, a locked survey) reads at
    // 6.8:1 on its grey-2 fill; Mantine's grey-5 was 1.9:1 (app/read-only-fields.css).
    '--mantine-color-disabled-color': t.colors.gray[7],
  },
  dark: {},
});

/**
 * The app has one colour scheme, light. Mantine's default manager reads a saved choice from
 * localStorage as the provider first renders, and the browser's first read of a site's
 * storage is a synchronous load in the staff screens' start (docs/benchmarks.md, "Fifth
 * pass"). This one answers "light" and keeps nothing.
 */
const lightOnly: MantineColorSchemeManager = {
  get: () => 'light',
  set: () => undefined,
  subscribe: () => undefined,
  unsubscribe: () => undefined,
  clear: () => undefined,
};

/**
 * The toasts' container (and its transitions) is fetched and mounted with the first toast
 * (lib/toasts.ts), which waits in the notifications store meanwhile. Mounted with the app,
 * its two files were fetched beside the first screen's, and mounting it after the page had
 * loaded put its work where the screen should answer input (Lighthouse's blocking time).
 */
const Notifications = lazy(async () => ({ default: (await import('../lib/notifications')).Notifications }));

/** What every screen stands on: the theme and the toasts (TanStack Query: lib/query-provider.tsx). */
export function Providers({ children }: { children: ReactNode }) {
  const toasts = useSyncExternalStore(subscribeToFirstToast, hasRaisedToast);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={lightOnly}>
      {toasts && (
        <Suspense fallback={null}>
          {/* Mantine learns of reduced motion only after its first render: the first toast would still fade in. */}
          <Notifications
            position="bottom-right"
            autoClose={TOAST_AUTO_CLOSE_MS}
            transitionDuration={prefersReducedMotion() ? 0 : undefined}
          />
        </Suspense>
      )}
      {children}
    </MantineProvider>
  );
}
