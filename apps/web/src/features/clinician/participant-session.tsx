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
import { type ParticipantLoginResponse, type ParticipantUser, authRoutes } from '@pss/contract';
import { call, setAccessToken, setUnauthorizedHandler } from '../../lib/api-client';
import { refreshParticipant } from '../../lib/session/auth-api';
import { takeEarly } from '../../lib/session/early-start';

/**
 * A participant's session, apart from the staff one: its own refresh cookie, loaded at
 * start, refreshed before the access token runs out, ended on any 401.
 */
type State = { status: 'loading' } | { status: 'anonymous' } | { status: 'signed-in'; user: ParticipantUser };

interface ParticipantSession {
  state: State;
  signInWithPassword(email: string, password: string): Promise<void>;
  signInWithLink(token: string): Promise<ParticipantUser>;
  signOut(): Promise<void>;
  /** After creating a password: the user now has one. */
  passwordCreated(): void;
}

const Context = createContext<ParticipantSession | null>(null);

export function useParticipantSession(): ParticipantSession {
  const value = useContext(Context);
  if (!value) throw new Error('useParticipantSession outside ParticipantSessionProvider');
  return value;
}

export function ParticipantSessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const refreshTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** Whether the session is known (found in the cookie, signed in, or found absent). */
  const settled = useRef(false);

  const end = useCallback(() => {
    clearTimeout(refreshTimer.current);
    setAccessToken(null);
    setState({ status: 'anonymous' });
  }, []);

  const accept = useCallback(
    (session: ParticipantLoginResponse) => {
      settled.current = true;
      setAccessToken(session.access_token);
      setState({ status: 'signed-in', user: session.user });
      clearTimeout(refreshTimer.current);
      // Refresh when four fifths of the access token's life has passed.
      refreshTimer.current = setTimeout(
        () => {
          refreshParticipant().then(accept).catch(end);
        },
        Math.max(10, session.expires_in * 0.8) * 1000,
      );
    },
    [end],
  );

  // The session already in the cookie, if any. A sign-in that finishes first (a dashboard
  // link opened in this tab) wins: this late answer must not replace or end it.
  useEffect(() => {
    let cancelled = false;
    // Sent as the app started, when it started here (lib/session/early-start.ts).
    takeEarly('participant', () => refreshParticipant({ isLogin: true }))
      .then((session) => {
        // A transition, like the first render (main.tsx): the dashboard this lets through is
        // built in slices rather than in one long task. A sign-in, which navigates straight
        // after, sets its session at once.
        if (!cancelled && !settled.current) startTransition(() => accept(session));
      })
      .catch(() => {
        if (!cancelled && !settled.current) setState({ status: 'anonymous' });
      })
      .finally(() => {
        settled.current = true;
      });
    setUnauthorizedHandler(end);
    return () => {
      cancelled = true;
      setUnauthorizedHandler(null);
      clearTimeout(refreshTimer.current);
    };
  }, [accept, end]);

  const value = useMemo<ParticipantSession>(
    () => ({
      state,
      async signInWithPassword(email, password) {
        accept(await call(authRoutes.loginParticipant, { body: { email, password } }, { isLogin: true }));
      },
      async signInWithLink(token) {
        const session = await call(authRoutes.loginByLink, { body: { token } }, { isLogin: true });
        accept(session);
        return session.user;
      },
      async signOut() {
        await call(authRoutes.logoutParticipant).catch(() => undefined);
        end();
      },
      passwordCreated() {
        setState((current) =>
          current.status === 'signed-in'
            ? {
                status: 'signed-in',
                user: {
                  ...current.user,
                  has_password: true,
                  role: current.user.role === 'HALFUSER' ? 'USER' : current.user.role,
                },
              }
            : current,
        );
      },
    }),
    [state, accept, end],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}
