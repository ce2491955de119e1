import {
  PRESENCE_COOKIE,
  authRoutes,
  clientListRoute,
  dashboardRoute,
  serviceRoutes,
  type ReplyOf,
  type RouteDefinition,
} from '@pss/contract';
import { CLIENTS_FIRST_PAGE, FIRST_PAGE_SCREENS, type FirstCalls } from '../../boot/first-calls';
import { answerOf, call, setAccessToken } from '../api-client';
import { hasCookie } from '../cookies';
import { fetchClientSettings, refreshParticipant, refreshSession } from './auth-api';
import { sharedRefresh } from './shared-refresh';

export { CLIENTS_FIRST_PAGE };

/**
 * The calls a first screen waits on, sent as soon as the app's code has run (main.tsx)
 * rather than when the provider that needs them mounts.
 *
 * A signed-in screen paints nothing useful before its session is known, and the providers
 * mount late: the staff one after React's first render, the participant one after the
 * participant screens' code has loaded. On a phone's network and processor that was most of
 * a second in which the network sat idle. Each provider takes the call started here for it,
 * once; a provider that mounts again (or one in a test, where nothing started early) makes
 * its own call, as before.
 *
 * What each call started early answers, by its name: the one record that both the starting
 * and the taking read, so a call is taken as the type it was started with.
 */
export interface EarlyReplies {
  settings: ReplyOf<typeof serviceRoutes.settings>;
  staff: ReplyOf<typeof authRoutes.refreshStaff>;
  participant: ReplyOf<typeof authRoutes.refreshParticipant>;
  'participant-dashboard': ReplyOf<typeof dashboardRoute>;
  'clients-first-page': ReplyOf<typeof clientListRoute>;
}
export type Early = keyof EarlyReplies;

/** Calls in flight by name, each the promise of its own answer in `Replies`. */
type Calls<Replies> = { [K in keyof Replies]?: Promise<Replies[K]> };

function keep<Replies, K extends keyof Replies>(calls: Calls<Replies>, name: K, answer: Promise<Replies[K]>): void {
  calls[name] = answer;
}

function takeFrom<Replies, K extends keyof Replies>(calls: Calls<Replies>, name: K): Promise<Replies[K]> | undefined {
  const answer = calls[name];
  delete calls[name];
  return answer;
}

const started: Calls<EarlyReplies> = {};

function start<K extends Early>(name: K, send: () => Promise<EarlyReplies[K]>): void {
  const answer = send();
  // Taken later, or never: a failure is the taker's to handle, not an unhandled rejection.
  answer.catch(() => undefined);
  keep(started, name, answer);
}

/** The call started early for `name`, the first time it is asked for; afterwards, or if none was, undefined. */
export function takeStarted<K extends Early>(name: K): Promise<EarlyReplies[K]> | undefined {
  return takeFrom(started, name);
}

/** The call started early for `name`, the first time; afterwards, or if none was, `send()`. */
export function takeEarly<K extends Early>(name: K, send: () => Promise<EarlyReplies[K]>): Promise<EarlyReplies[K]> {
  return takeStarted(name) ?? send();
}

/**
 * A page's first data: the call started early for `name`, the first time, unless it failed
 * (the page started without a session, and the user has signed in since); otherwise `send()`.
 */
export async function takeStartedData<K extends Early>(
  name: K,
  send: () => Promise<EarlyReplies[K]>,
): Promise<EarlyReplies[K]> {
  const early = takeStarted(name);
  const answer = early && (await early.catch(() => null));
  return answer ?? send();
}

/** Every screen under /participant has the participant's session around it (app/router.tsx). */
function isParticipantPath(pathname: string): boolean {
  return pathname === '/participant' || pathname.startsWith('/participant/');
}

/** The calls index.html's script sent (src/boot/first-calls.ts), taken once; undefined if it sent none. */
function takeFirstCalls(): FirstCalls | undefined {
  const calls = window.pssFirstCalls;
  delete window.pssFirstCalls;
  return calls;
}

/**
 * A session refresh sent by index.html, taken as the refresh in flight, so that a refresh
 * asked for meanwhile in this tab shares its answer instead of spending the cookie again.
 */
function adoptRefresh<D extends RouteDefinition>(
  name: 'staff' | 'participant',
  route: D,
  sent: Promise<Response>,
): Promise<ReplyOf<D>> {
  return sharedRefresh(name, () => answerOf(route, sent, { isLogin: true }), { waitForOtherTabs: false });
}

/** The first data index.html's script asked for, if it asked for `path`'s (the answer of `route`); else `send()`. */
function firstPageOr<D extends RouteDefinition>(
  first: FirstCalls | undefined,
  path: string,
  route: D,
  send: () => Promise<ReplyOf<D>>,
): Promise<ReplyOf<D>> {
  const page = first?.firstPage;
  if (page?.path !== path) return send();
  return page.answer.then((sent) => (sent ? answerOf(route, sent) : send()));
}

/**
 * Starts what the page at `pathname` will ask for first: the server's public settings (every
 * page), and the session the page's provider loads at start — the participant's under
 * /participant, the staff session elsewhere when the presence cookie says there is one.
 * The participant's dashboard and the clients list, the pages participants and provider
 * staff land on, also have their first data asked for as soon as the session is there
 * (features/clinician/clinician-api.ts and features/clients/clients-api.ts take it).
 * Where index.html's script already sent a call, its answer is taken instead of sending
 * the call again.
 */
export function startSessionEarly(pathname: string, search = window.location.search): void {
  const first = takeFirstCalls();
  start('settings', () => (first ? answerOf(serviceRoutes.settings, first.settings) : fetchClientSettings()));
  if (isParticipantPath(pathname)) {
    const session = first?.participant
      ? adoptRefresh('participant', authRoutes.refreshParticipant, first.participant)
      : refreshParticipant({ isLogin: true, waitForOtherTabs: false });
    start('participant', () => session);
    if (pathname === FIRST_PAGE_SCREENS.participantDashboard) {
      start('participant-dashboard', async () => {
        // The provider sets the same token when it takes this session, moments later.
        setAccessToken((await session).access_token);
        return firstPageOr(first, pathname, dashboardRoute, () => call(dashboardRoute));
      });
    }
    return;
  }
  const staff = first?.staff
    ? adoptRefresh('staff', authRoutes.refreshStaff, first.staff)
    : hasCookie(PRESENCE_COOKIE)
      ? refreshSession({ waitForOtherTabs: false })
      : undefined;
  if (!staff) return;
  start('staff', () => staff);
  if (pathname === FIRST_PAGE_SCREENS.clientsList && !search) {
    start('clients-first-page', async () => {
      setAccessToken((await staff).access_token);
      return firstPageOr(first, pathname, clientListRoute, () => call(clientListRoute, { query: CLIENTS_FIRST_PAGE }));
    });
  }
}
