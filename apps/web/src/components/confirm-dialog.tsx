import { lazyDialog } from './lazy-dialog';

/** Asks before a destructive (or far-reaching) action, saying what will happen; red unless told. */
export const ConfirmDialog = lazyDialog(async () => (await import('./confirm-dialog-modal')).ConfirmDialogModal);
