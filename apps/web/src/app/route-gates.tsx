import { Center, Loader } from '@mantine/core';
import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@pss/contract';
import { landingPathFor } from '../features/auth/auth-api';
import { SignedInShell } from './app-shell';
import { useSession } from './session';

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" aria-busy="true">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}

/** Routes that need a signed-in staff member; anyone else is sent to sign in. */
export function RequireStaff() {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <FullPageLoader />;
  if (state.status === 'anonymous') {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login-landing?next=${next}`} replace />;
  }
  return <SignedInShell user={state.user} />;
}

/** Superadmin-only screens: a client administrator is taken to their own client. */
export function RequireSuperadmin({ children }: { children: (user: CurrentUser) => React.ReactNode }) {
  const { state } = useSession();
  if (state.status !== 'signed-in') return null;
  if (state.user.role !== 'superadmin') return <Navigate to={landingPathFor(state.user)} replace />;
  return <>{children(state.user)}</>;
}
