import { Navigate, useLocation } from '../lib/screen-router';
import '../lib/i18n/admin';
import { FullPageLoader } from '../components/full-page-loader';
import { SignedInShell } from './app-shell';
import { QueryProvider } from '../lib/query-provider';
import { useSession } from '../lib/session/session-provider';

/** Routes that need a signed-in staff member; anyone else is sent to sign in. */
export function RequireStaff() {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <FullPageLoader />;
  if (state.status === 'anonymous' && state.ended === 'signed-out') return <Navigate to="/logged-out" replace />;
  if (state.status === 'anonymous' && state.ended === 'unauthorized') return <Navigate to="/unauthorized" replace />;
  if (state.status === 'anonymous') {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login-landing?next=${next}`} replace />;
  }
  return (
    <QueryProvider>
      <SignedInShell user={state.user} />
    </QueryProvider>
  );
}
