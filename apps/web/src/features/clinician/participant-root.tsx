import { Outlet } from '../../lib/screen-router';
import { ParticipantSessionProvider } from './participant-session';

/**
 * The clinicians' side, signed in or not: its own session. Apart from the signed-in layout
 * (./participant-layout.tsx), so the sign-in screens below it download neither that layout
 * nor the query library it brings.
 */
export function ParticipantRoot() {
  return (
    <ParticipantSessionProvider>
      <Outlet />
    </ParticipantSessionProvider>
  );
}
