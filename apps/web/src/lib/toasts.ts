import type { NotificationData } from '@mantine/notifications';

let raised = false;
const firstToastListeners = new Set<() => void>();

/** Whether any toast has been raised: the toasts' container is mounted from then on (app/providers.tsx). */
export function hasRaisedToast(): boolean {
  return raised;
}

export function subscribeToFirstToast(listener: () => void): () => void {
  firstToastListeners.add(listener);
  return () => firstToastListeners.delete(listener);
}

/** Toasts appear bottom-right and close after 3 seconds (spec §9). */
export const TOAST_AUTO_CLOSE_MS = 3000;

/** Whether the reader asked their system for less motion (the browser flows do: playwright.config.ts). */
export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Toasts come from @mantine/notifications, fetched with the first toast rather than with
 * every screen's first download; the store keeps a toast until the container shows it.
 *
 * A toast closes after 3 seconds, and waits while the pointer rests on it (Mantine pauses
 * them all). Under reduced motion a toast neither slides nor fades (the theme's
 * `respectReducedMotion`), so closing on a timer would snatch its words away mid-read,
 * unannounced: it stays until its close button, and the next toast takes its place, so they
 * never pile up over the screen (docs/design/web-app.md#toasts).
 */
function show(toast: NotificationData): void {
  if (!raised) {
    raised = true;
    for (const listener of firstToastListeners) listener();
  }
  const stays = prefersReducedMotion();
  void import('./notifications').then(({ notifications }) => {
    if (stays) notifications.clean();
    notifications.show({ ...toast, autoClose: stays ? false : TOAST_AUTO_CLOSE_MS });
  });
}

export function toastSuccess(message: string): void {
  show({ message, color: 'teal' });
}

export function toastError(message: string): void {
  show({ message, color: 'red' });
}

export function toastInfo(message: string): void {
  show({ message });
}
