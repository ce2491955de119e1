import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PRESENCE_COOKIE, type ClientSettings, type CurrentUser } from '@pss/contract';
import { setAccessToken, setUnauthorizedHandler } from '../lib/api-client';
import { clearCookie, hasCookie } from '../lib/cookies';
import { toastInfo } from '../lib/toasts';
import {
  fetchClientSettings,
  refreshSession,
  signIn as signInCall,
  signOutOnServer,
  type StaffSignInFlow,
} from '../features/auth/auth-api';

/** Admins' presence cookie is checked this often (spec §4). */
export const COOKIE_CHECK_INTERVAL_MS = 5000;
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'touchstart', 'keydown', 'wheel'] as const;

type SessionState = { status: 'loading' } | { status: 'anonymous' } | { status: 'signed-in'; user: CurrentUser };
export type SignOutReason = 'user' | 'cookie-missing' | 'inactive';

interface SessionContextValue {
  state: SessionState;
  signIn(flow: StaffSignInFlow, email: string, password: string): Promise<CurrentUser>;
  signOut(reason?: SignOutReason): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/**
 * The staff session of spec §4: loaded at start from the refresh cookie, refreshed
 * periodically, ended by sign-out, by inactivity, by a 401, or (for admins) when the
 * presence cookie disappears.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [settings, setSettings] = useState<ClientSettings | null>(null);
  const signingOut = useRef(false);

  const endLocally = useCallback(() => {
    setAccessToken(null);
    clearCookie(PRESENCE_COOKIE);
    queryClient.clear();
    setState({ status: 'anonymous' });
  }, [queryClient]);

  const signOut = useCallback(
    async (reason: SignOutReason = 'user') => {
      if (signingOut.current) return;
      signingOut.current = true;
      try {
        if (reason !== 'cookie-missing') await signOutOnServer().catch(() => undefined);
        endLocally();
        toastInfo(reason === 'inactive' ? t('auth.inactiveToast') : t('auth.loggedOutToast'));
        navigate('/logged-out');
      } finally {
        signingOut.current = false;
      }
    },
    [endLocally, navigate, t],
  );

  const signIn = useCallback(async (flow: StaffSignInFlow, email: string, password: string) => {
    const session = await signInCall(flow, email, password);
    setAccessToken(session.access_token);
    setState({ status: 'signed-in', user: session.user });
    return session.user;
  }, []);

  // Load the session at start.
  useEffect(() => {
    let cancelled = false;
    fetchClientSettings()
      .then((s) => !cancelled && setSettings(s))
      .catch(() => undefined);
    if (!hasCookie(PRESENCE_COOKIE)) {
      setState({ status: 'anonymous' });
      return;
    }
    refreshSession()
      .then((session) => {
        if (cancelled) return;
        setAccessToken(session.access_token);
        setState({ status: 'signed-in', user: session.user });
      })
      .catch(() => {
        if (!cancelled) endLocally();
      });
    return () => {
      cancelled = true;
    };
  }, [endLocally]);

  // A 401 on any call: the session is gone.
  useEffect(() => {
    setUnauthorizedHandler(() => {
      endLocally();
      navigate('/unauthorized');
    });
    return () => setUnauthorizedHandler(null);
  }, [endLocally, navigate]);

  const signedIn = state.status === 'signed-in';
  const role = signedIn ? state.user.role : undefined;

  // Periodic token refresh.
  useEffect(() => {
    if (!signedIn || !settings) return;
    const timer = setInterval(() => {
      refreshSession()
        .then((session) => setAccessToken(session.access_token))
        .catch(() => {
          endLocally();
          navigate('/unauthorized');
        });
    }, settings.token_refresh_interval_seconds * 1000);
    return () => clearInterval(timer);
  }, [signedIn, settings, endLocally, navigate]);

  // Admins: the presence cookie is checked every 5 s; without it, the session is over.
  useEffect(() => {
    if (role !== 'admin') return;
    const timer = setInterval(() => {
      if (!hasCookie(PRESENCE_COOKIE)) void signOut('cookie-missing');
    }, COOKIE_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [role, signOut]);

  // Inactivity timeout, reset by mouse, touch and keyboard.
  useEffect(() => {
    if (!signedIn || !settings) return;
    const timeoutMs = settings.inactivity_timeout_minutes * 60_000;
    let timer = setTimeout(() => void signOut('inactive'), timeoutMs);
    const reset = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void signOut('inactive'), timeoutMs);
    };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, reset, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, reset);
    };
  }, [signedIn, settings, signOut]);

  const value = useMemo(() => ({ state, signIn, signOut }), [state, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
