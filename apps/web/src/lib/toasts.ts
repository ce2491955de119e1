import { notifications } from '@mantine/notifications';

/** Toasts appear bottom-right and close after 3 seconds (spec §9). */
export const TOAST_AUTO_CLOSE_MS = 3000;

export function toastSuccess(message: string): void {
  notifications.show({ message, color: 'teal', autoClose: TOAST_AUTO_CLOSE_MS });
}

export function toastError(message: string): void {
  notifications.show({ message, color: 'red', autoClose: TOAST_AUTO_CLOSE_MS });
}

export function toastInfo(message: string): void {
  notifications.show({ message, autoClose: TOAST_AUTO_CLOSE_MS });
}
