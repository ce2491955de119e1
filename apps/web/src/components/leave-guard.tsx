import { useEffect } from 'react';
import { useBlocker } from '../lib/screen-router';
import { ConfirmDialog } from './confirm-dialog';

/**
 * An editor's unsaved changes: leaving asks first. Going to another screen of the app opens a
 * dialog with the editor's own words; closing or reloading the tab gets the browser's question.
 * While `saving`, a navigation is not asked about: it is the save's own (a new record's address).
 */
export function LeaveGuard(props: {
  dirty: boolean;
  saving?: boolean;
  title: string;
  message: string;
  confirmLabel: string;
}) {
  const { dirty, saving = false } = props;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !saving && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return (
    <ConfirmDialog
      opened={blocker.state === 'blocked'}
      title={props.title}
      message={props.message}
      confirmLabel={props.confirmLabel}
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
}
