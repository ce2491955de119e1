import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from '../../lib/screen-router';
import { useSession } from '../../lib/session/session-provider';
import { FullPageLoader } from '../../components/full-page-loader';
import { landingPathFor } from '../../lib/session/auth-api';
import { ApiError } from '../../lib/api-error';

/**
 * Where the organisation's identity provider sends a client administrator back to
 * (`?code=…&state=…`, or `?error=…`). The page hands that answer to the API, which checks
 * it and signs in; a refusal goes to /unauthorized with the catalogue code that says why.
 * Without an answer it is where a sign-in returns to: a signed-in member goes to their
 * landing page, anyone else to sign in.
 */
export function KeycloakLandingPage() {
  const { state, signInWithProvider } = useSession();
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(search);
  const answered = params.has('code') || params.has('error');
  // The answer works once: React's development double effect must not send it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (!answered || sent.current) return;
    sent.current = true;
    signInWithProvider(search)
      .then((user) => navigate(landingPathFor(user), { replace: true }))
      .catch((error: unknown) => {
        const reason = error instanceof ApiError ? error.errorCode : 'UNKNOWN_ERROR';
        navigate(`/unauthorized?reason=${encodeURIComponent(reason)}`, { replace: true });
      });
  }, [answered, search, signInWithProvider, navigate]);

  if (answered || state.status === 'loading') return <FullPageLoader />;
  if (state.status === 'signed-in') return <Navigate to={landingPathFor(state.user)} replace />;
  return <Navigate to="/login-landing" replace />;
}
