import {
  PRESENCE_COOKIE,
  type ClientSettings,
  type Dashboard,
  type LoginResponse,
  type ParticipantLoginResponse,
  type ReplyOf,
  type RouteDefinition,
  type clientListQuery,
  type clientRoutes,
} from '@pss/contract';
import type { FirstCalls } from '../../boot/first-calls';
import { answerOf, call, setAccessToken } from '../api-client';
import { hasCookie } from '../cookies';
import { fetchClientSettings, refreshParticipant, refreshSession } from './auth-api';
import { sharedRefresh } from './shared-refresh';

type ClientPage = ReplyOf<typeof clientRoutes.list>;

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
type Early = 'settings' | 'staff' | 'participant' | 'participant-dashboard' | 'clients-first-page';

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
 * A page's first data: the call started early for `name`, the first time, unless it failed
 * (the page started without a session, and the user has signed in since); otherwise `send()`.
 */
export async function takeStartedData<T>(name: Early, send: () => Promise<T>): Promise<T> {
  const early = takeStarted<T>(name);
  const answer = early && (await early.catch(() => null));
  return answer ?? send();
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

/**
 * The clients list's first page (`clientRoutes.list`, page 1 of 25), for the same reason: its
 * query's type is the contract's, but only the method and path go into this module.
 */
export const CLIENTS_ROUTE = {
  method: 'GET',
  path: '/clients',
  access: 'admin',
  query: undefined as unknown as typeof clientListQuery,
} as const satisfies RouteDefinition;
export const CLIENTS_FIRST_PAGE = { page: 1, limit: 25 } as const;

/** Every screen under /participant has the participant's session around it (app/router.tsx). */
function isParticipantPath(pathname: string): boolean {
  return pathname === '/participant' || pathname.startsWith('/participant/');
}

/** The calls index.html's script sent (src/boot/first-calls.ts), taken once; undefined if it sent none. */
function takeFirstCalls(): FirstCalls | undefined {
  const holder = window as { pssFirstCalls?: FirstCalls };
  const calls = holder.pssFirstCalls;
  delete holder.pssFirstCalls;
  return calls;
}

/**
 * A session refresh sent by index.html, taken as the refresh in flight, so that a refresh
 * asked for meanwhile in this tab shares its answer instead of spending the cookie again.
 */
function adoptRefresh<T>(name: 'staff' | 'participant', sent: Promise<Response>): Promise<T> {
  return sharedRefresh(name, () => answerOf<T>(sent, { isLogin: true }), { waitForOtherTabs: false });
}

/** The first data index.html's script asked for, if it asked for `path`'s; else `send()`. */
function firstPageOr<T>(first: FirstCalls | undefined, path: string, send: () => Promise<T>): Promise<T> {
  const page = first?.firstPage;
  if (page?.path !== path) return send();
  return page.answer.then((sent) => (sent ? answerOf<T>(sent) : send()));
}

/**
 * Starts what the page at `pathname` will ask for first: the server's public settings (every
 * page), and the session the page's provider loads at start — the participant's under
 * /participant, the staff session elsewhere when the presence cookie says there is one.
 * The participant's dashboard and the clients list, the pages participants and provider
 * staff land on, also have their first data asked for as soon as the session is there
 * (features/clinician/participant-api.ts and features/clients/clients-api.ts take it).
 * Where index.html's script already sent a call, its answer is taken instead of sending
 * the call again.
 */
export function startSessionEarly(pathname: string, search = window.location.search): void {
  const first = takeFirstCalls();
  start('settings', () => (first ? answerOf<ClientSettings>(first.settings) : fetchClientSettings()));
  if (isParticipantPath(pathname)) {
    const session = first?.participant
      ? adoptRefresh<ParticipantLoginResponse>('participant', first.participant)
      : refreshParticipant({ isLogin: true, waitForOtherTabs: false });
    start('participant', () => session);
    if (pathname === '/participant') {
      start('participant-dashboard', async (): Promise<Dashboard> => {
        // The provider sets the same token when it takes this session, moments later.
        setAccessToken((await session).access_token);
        // The answer is the route table's `dashboard` reply; this copy of the route carries no schema.
        return firstPageOr(first, pathname, async () => (await call(DASHBOARD_ROUTE)) as unknown as Dashboard);
      });
    }
    return;
  }
  const staff = first?.staff
    ? adoptRefresh<LoginResponse>('staff', first.staff)
    : hasCookie(PRESENCE_COOKIE)
      ? refreshSession({ waitForOtherTabs: false })
      : undefined;
  if (!staff) return;
  start('staff', () => staff);
  if (pathname === '/project-management' && !search) {
    start('clients-first-page', async (): Promise<ClientPage> => {
      setAccessToken((await staff).access_token);
      return firstPageOr(
        first,
        pathname,
        async () => (await call(CLIENTS_ROUTE, { query: CLIENTS_FIRST_PAGE })) as unknown as ClientPage,
      );
    });
  }
}
