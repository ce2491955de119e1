import { Navigate } from 'react-router';
import { useSession } from '../../lib/session/session-provider';
import { FullPageLoader } from '../../components/full-page-loader';
import { landingPathFor } from '../../lib/session/auth-api';

/**
 * Where a sign-in returns to. The session is loaded from the refresh cookie at start;
 * once it is known, a signed-in member goes to their landing page and anyone else to
 * sign in.
 */
export function KeycloakLandingPage() {
  const { state } = useSession();
  if (state.status === 'loading') return <FullPageLoader />;
  if (state.status === 'signed-in') return <Navigate to={landingPathFor(state.user)} replace />;
  return <Navigate to="/login-landing" replace />;
}
