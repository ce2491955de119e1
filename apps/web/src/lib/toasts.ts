import type { NotificationData } from '@mantine/notifications';

/**
 * Toasts come from @mantine/notifications, fetched with the first toast (or with the
 * container, after the first paint) rather than with every screen's first download.
 */
function show(toast: NotificationData): void {
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
