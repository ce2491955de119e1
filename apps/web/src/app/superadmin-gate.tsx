import type { ReactNode } from 'react';
import { Navigate } from '../lib/screen-router';
import type { CurrentUser } from '@pss/contract';
import { landingPathFor } from '../lib/session/auth-api';
import { useSession } from '../lib/session/session-provider';

/** Superadmin-only screens: a client administrator is taken to their own client. */
export function RequireSuperadmin({ children }: { children: (user: CurrentUser) => ReactNode }) {
  const { state } = useSession();
  if (state.status !== 'signed-in') return null;
  if (state.user.role !== 'superadmin') return <Navigate to={landingPathFor(state.user)} replace />;
  return <>{children(state.user)}</>;
}
