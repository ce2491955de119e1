import { PRESENCE_COOKIE, type Dashboard, type RouteDefinition } from '@pss/contract';
import { call, setAccessToken } from '../api-client';
import { hasCookie } from '../cookies';
import { fetchClientSettings, refreshParticipant, refreshSession } from './auth-api';

/**
 * The calls a first screen waits on, sent as soon as the app's code has run (main.tsx)
 * rather than when the provider that needs them mounts (issue #19).
 *
 * A signed-in screen paints nothing useful before its session is known, and the providers
 * mount late: the staff one after React's first render, the participant one after the
 * participant screens' code has loaded. On a phone's network and processor that was most of
 * a second in which the network sat idle. Each provider takes the call started here for it,
 * once; a provider that mounts again (or one in a test, where nothing started early) makes
 * its own call, as before.
 */
type Early = 'settings' | 'staff' | 'participant' | 'participant-dashboard';

const started = new Map<Early, Promise<unknown>>();

function start<T>(name: Early, send: () => Promise<T>): void {
  const answer = send();
  // Taken later, or never: a failure is the taker's to handle, not an unhandled rejection.
  answer.catch(() => undefined);
  started.set(name, answer);
}

/** The call started early for `name`, the first time it is asked for; afterwards, or if none was, undefined. */
export function takeStarted<T>(name: Early): Promise<T> | undefined {
  const answer = started.get(name) as Promise<T> | undefined;
  started.delete(name);
  return answer;
}

/** The call started early for `name`, the first time; afterwards, or if none was, `send()`. */
export function takeEarly<T>(name: Early, send: () => Promise<T>): Promise<T> {
  return takeStarted<T>(name) ?? send();
}

/**
 * The participant's dashboard call (`attemptRoutes.dashboard`; a test holds them the same).
 * Not imported from the route table: this module is part of every page's first download,
 * and with the participant's route table in it the bundler split the shared code of the
 * first screens into six more files (sign-in 15 → 21).
 */
export const DASHBOARD_ROUTE = {
  method: 'GET',
  path: '/dashboard',
  access: 'participant',
} as const satisfies RouteDefinition;

/** Every screen under /participant has the participant's session around it (app/router.tsx). */
function isParticipantPath(pathname: string): boolean {
  return pathname === '/participant' || pathname.startsWith('/participant/');
}

/**
 * Starts what the page at `pathname` will ask for first: the server's public settings (every
 * page), and the session the page's provider loads at start — the participant's under
 * /participant, the staff session elsewhere when the presence cookie says there is one.
 * The participant's dashboard, the page every participant lands on, also has its data asked
 * for as soon as the session is there (features/clinician/participant-api.ts takes it).
 */
export function startSessionEarly(pathname: string): void {
  start('settings', fetchClientSettings);
  if (isParticipantPath(pathname)) {
    const session = refreshParticipant({ isLogin: true, waitForOtherTabs: false });
    start('participant', () => session);
    if (pathname === '/participant') {
      start('participant-dashboard', async (): Promise<Dashboard> => {
        // The provider sets the same token when it takes this session, moments later.
        setAccessToken((await session).access_token);
        // The answer is the route table's `dashboard` reply; this copy of the route carries no schema.
        return (await call(DASHBOARD_ROUTE)) as unknown as Dashboard;
      });
    }
  } else if (hasCookie(PRESENCE_COOKIE)) start('staff', () => refreshSession({ waitForOtherTabs: false }));
}
