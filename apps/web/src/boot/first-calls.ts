/**
 * The calls a first screen waits on, sent by index.html itself while the app's code is still
 * downloading.
 *
 * On a phone's network the entry script takes a second or more to arrive, and a signed-in
 * screen can paint nothing useful before its session is known and its first data has come.
 * Sent from the app's code, the session refresh left only once the entry had arrived and run,
 * and a screen's first list only once React had rendered the screen that asks for it: two
 * waits in a row after the download. Sent from here they ride beside the download. The app
 * takes each answer once (lib/session/early-start.ts); when this script did not run (tests,
 * an old cached page) the app sends the same calls itself.
 *
 * `startFirstCalls` is put into index.html's head as its source text
 * (build/first-calls-script.ts), so it must stand alone: no imports, nothing from outside the
 * function but its arguments, and only what every browser the app supports runs as is.
 */

/**
 * What the script sends: the contract's routes, as URLs, written into index.html when it is
 * built (build/first-calls-script.ts), so that no path is written here a second time.
 */
export interface FirstCallsConfig {
  settings: string;
  staffRefresh: string;
  participantRefresh: string;
  /** The cookie that says a staff session may exist (the contract's PRESENCE_COOKIE). */
  presenceCookie: string;
  /**
   * Screens whose first data is asked for as soon as their session is known, when they are
   * opened as they are landed on (no query string): the screen's path → the call's URL.
   */
  firstPages: Record<string, string>;
}

/** The screens whose first data is asked for early (`FirstCallsConfig.firstPages`), by their path. */
export const FIRST_PAGE_SCREENS = { clientsList: '/project-management', participantDashboard: '/participant' } as const;

/** The clients list's first page, as the list opens (features/clients/clients-api.ts asks for the same). */
export const CLIENTS_FIRST_PAGE = { page: 1, limit: 25 } as const;

/** The calls the script sent, left on `window` for the app to take. */
export interface FirstCalls {
  settings: Promise<Response>;
  /** The staff session's refresh, when the presence cookie says there may be one. */
  staff?: Promise<Response>;
  /** The participant's refresh, on the participant's pages. */
  participant?: Promise<Response>;
  /** The first data of the page (`FirstCallsConfig.firstPages`), null if its session failed. */
  firstPage?: { path: string; answer: Promise<Response | null> };
}

declare global {
  interface Window {
    /** The calls index.html's script sent, until the app takes them (lib/session/early-start.ts). */
    pssFirstCalls?: FirstCalls;
  }
}

export interface FirstCallsWindow {
  location: { pathname: string; search: string };
  document: { cookie: string };
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  pssFirstCalls?: FirstCalls;
}

export function startFirstCalls(w: FirstCallsWindow, c: FirstCallsConfig): void {
  function get(url: string, token?: string): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = 'Bearer ' + token;
    const sent = w.fetch(url, { headers: headers, credentials: 'include' });
    // Taken later, or never: a failure is the taker's to handle, not an unhandled rejection.
    sent.catch(function () {});
    return sent;
  }
  const path = w.location.pathname;
  const calls: FirstCalls = { settings: get(c.settings) };
  let session: Promise<Response> | undefined;
  if (path === '/participant' || path.indexOf('/participant/') === 0) {
    session = calls.participant = get(c.participantRefresh);
  } else if (
    w.document.cookie.split(';').some(function (part) {
      return part.trim().indexOf(c.presenceCookie + '=') === 0;
    })
  ) {
    session = calls.staff = get(c.staffRefresh);
  }
  const page = Object.prototype.hasOwnProperty.call(c.firstPages, path) ? c.firstPages[path] : undefined;
  if (session && page && !w.location.search) {
    const answer = session.then(function (response) {
      if (!response.ok) return null;
      // A copy of the answer: the app reads the session's own.
      return response
        .clone()
        .json()
        .then(function (body: { access_token: string }) {
          return get(page, body.access_token);
        });
    });
    answer.catch(function () {});
    calls.firstPage = { path: path, answer: answer };
  }
  w.pssFirstCalls = calls;
}
