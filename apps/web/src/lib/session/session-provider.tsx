import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from '../i18n';
import {
  defaultClientSettings,
  PRESENCE_COOKIE,
  type ClientSettings,
  type CurrentUser,
  type LoginResponse,
  type StaffSignInResponse,
} from '@pss/contract';
import { setAccessToken, setUnauthorizedHandler } from '../api-client';
import { clearCookie, hasCookie } from '../cookies';
import { toastInfo } from '../toasts';
import {
  fetchClientSettings,
  finishProviderSignIn,
  landingPathFor,
  refreshSession,
  signIn as signInCall,
  signOutOnServer,
  signOutWithRedirect,
  type StaffSignInFlow,
} from './auth-api';
import { takeEarly } from './early-start';
import { clearQueryCache } from '../query-cache';

/** Admins' presence cookie is checked this often (spec §4). */
export const COOKIE_CHECK_INTERVAL_MS = 5000;
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'touchstart', 'keydown', 'wheel'] as const;

/**
 * `ended` says why a session just ended, so that the route gate sends the person to the
 * right page (/logged-out or /unauthorized) instead of to sign in.
 */
export type SessionState =
  | { status: 'loading' }
  | { status: 'anonymous'; ended?: 'signed-out' | 'unauthorized' }
  | { status: 'signed-in'; user: CurrentUser };
export type SignOutReason = 'user' | 'cookie-missing' | 'inactive';

interface SessionContextValue {
  state: SessionState;
  /** A password sign-in: signed in when it answers a session, else one step (a second factor, or setting one up) from it. */
  signIn(flow: StaffSignInFlow, email: string, password: string): Promise<StaffSignInResponse>;
  /** Takes up a session a second step answered (a second factor given, or one set up). */
  completeSignIn(session: LoginResponse): CurrentUser;
  /** Finishes a sign-in through the identity provider with the query it sent the browser back with. */
  signInWithProvider(query: string): Promise<CurrentUser>;
  signOut(reason?: SignOutReason): Promise<void>;
  /** The server's public settings; null until read (the sign-in page waits for them). */
  settings: ClientSettings | null;
}

const SessionContext = createContext<SessionContextValue | null>(null);

/** How soon settings that could not be read are asked for again. */
const SETTINGS_RETRY_MS = 30_000;

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/**
 * Where the signed-in staff member starts (their home: landingPathFor), or the app's home page
 * when no one is: the way back from a page that cannot be shown. Outside a SessionProvider too.
 */
export function useHomePath(): string {
  const value = useContext(SessionContext);
  return value?.state.status === 'signed-in' ? landingPathFor(value.state.user) : '/';
}

/**
 * The staff session of spec §4: loaded at start from the refresh cookie, refreshed
 * periodically, ended by sign-out, by inactivity, by a 401, or (for admins) when the
 * presence cookie disappears.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [settings, setSettings] = useState<ClientSettings | null>(null);
  const signingOut = useRef(false);

  const endLocally = useCallback((ended?: 'signed-out' | 'unauthorized') => {
    setAccessToken(null);
    clearCookie(PRESENCE_COOKIE);
    clearQueryCache();
    setState({ status: 'anonymous', ended });
  }, []);

  const signOut = useCallback(
    async (reason: SignOutReason = 'user') => {
      if (signingOut.current) return;
      signingOut.current = true;
      try {
        if (reason === 'user') {
          // A session from the identity provider ends at the provider too (spec §4): the
          // browser leaves for its end-session page, which comes back to /logged-out.
          const next = await signOutWithRedirect().catch(() => null);
          if (next?.redirect_url) {
            setAccessToken(null);
            clearQueryCache();
            window.location.assign(next.redirect_url);
            return;
          }
        } else if (reason !== 'cookie-missing') {
          await signOutOnServer().catch(() => undefined);
        }
        endLocally('signed-out');
        toastInfo(reason === 'inactive' ? t('auth.inactiveToast') : t('auth.loggedOutToast'));
      } finally {
        signingOut.current = false;
      }
    },
    [endLocally, t],
  );

  const completeSignIn = useCallback((session: LoginResponse) => {
    setAccessToken(session.access_token);
    setState({ status: 'signed-in', user: session.user });
    return session.user;
  }, []);

  const signIn = useCallback(
    async (flow: StaffSignInFlow, email: string, password: string) => {
      const answer = await signInCall(flow, email, password);
      if ('access_token' in answer) completeSignIn(answer);
      return answer;
    },
    [completeSignIn],
  );

  const signInWithProvider = useCallback(async (query: string) => {
    const session = await finishProviderSignIn(query);
    setAccessToken(session.access_token);
    setState({ status: 'signed-in', user: session.user });
    return session.user;
  }, []);

  // Load the session at start.
  useEffect(() => {
    let cancelled = false;
    // The timers run on the defaults when the settings cannot be read, and take the
    // server's once a later try reads them: a failed call never leaves them stopped.
    let retry: ReturnType<typeof setTimeout> | undefined;
    // The first read and the first refresh were sent as the app started (./early-start.ts);
    // a retry, taking nothing, reads again.
    const loadSettings = () =>
      takeEarly('settings', fetchClientSettings)
        // A transition, like the first render (main.tsx): the screen these answers let through
        // is built in slices rather than in one long task.
        .then((s) => !cancelled && startTransition(() => setSettings(s)))
        .catch(() => {
          if (cancelled) return;
          setSettings((current) => current ?? defaultClientSettings);
          retry = setTimeout(() => void loadSettings(), SETTINGS_RETRY_MS);
        });
    void loadSettings();
    const stop = () => {
      cancelled = true;
      clearTimeout(retry);
    };
    if (!hasCookie(PRESENCE_COOKIE)) {
      setState({ status: 'anonymous' });
      return stop;
    }
    takeEarly('staff', refreshSession)
      .then((session) => {
        if (cancelled) return;
        setAccessToken(session.access_token);
        startTransition(() => setState({ status: 'signed-in', user: session.user }));
      })
      .catch(() => {
        if (!cancelled) endLocally();
      });
    return stop;
  }, [endLocally]);

  // A 401 on any call: the session is gone.
  useEffect(() => {
    setUnauthorizedHandler(() => endLocally('unauthorized'));
    return () => setUnauthorizedHandler(null);
  }, [endLocally]);

  const signedIn = state.status === 'signed-in';
  const role = signedIn ? state.user.role : undefined;

  // Periodic token refresh.
  useEffect(() => {
    if (!signedIn || !settings) return;
    const timer = setInterval(() => {
      refreshSession()
        .then((session) => setAccessToken(session.access_token))
        .catch(() => endLocally('unauthorized'));
    }, settings.token_refresh_interval_seconds * 1000);
    return () => clearInterval(timer);
  }, [signedIn, settings, endLocally]);

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

  const value = useMemo(
    () => ({ state, signIn, completeSignIn, signInWithProvider, signOut, settings }),
    [state, signIn, completeSignIn, signInWithProvider, signOut, settings],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
