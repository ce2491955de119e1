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

/**
 * Toasts come from @mantine/notifications, fetched with the first toast rather than with
 * every screen's first download; the store keeps a toast until the container shows it.
 */
function show(toast: NotificationData): void {
  if (!raised) {
    raised = true;
    for (const listener of firstToastListeners) listener();
  }
  void import('./notifications').then(({ notifications }) => notifications.show(toast));
}

/** Toasts appear bottom-right and close after 3 seconds (spec §9). */
export const TOAST_AUTO_CLOSE_MS = 3000;

export function toastSuccess(message: string): void {
  show({ message, color: 'teal', autoClose: TOAST_AUTO_CLOSE_MS });
}

export function toastError(message: string): void {
  show({ message, color: 'red', autoClose: TOAST_AUTO_CLOSE_MS });
}

export function toastInfo(message: string): void {
  show({ message, autoClose: TOAST_AUTO_CLOSE_MS });
}
