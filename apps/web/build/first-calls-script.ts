import type { Plugin } from 'vite';
// The contract's source, not the package: Vite leaves a package's import in its config to
// Node, which cannot run the contract's TypeScript; a relative import is compiled with the config.
import {
  API_PREFIX,
  authRoutes,
  clientListRoute,
  dashboardRoute,
  PRESENCE_COOKIE,
  serviceRoutes,
  type CallInput,
  type RouteDefinition,
} from '../../../packages/contract/src/index';
import {
  CLIENTS_FIRST_PAGE,
  FIRST_PAGE_SCREENS,
  startFirstCalls,
  type FirstCallsConfig,
} from '../src/boot/first-calls';

/** A route the script sends: a GET with no path parameters (it fills none in). */
type FirstCallRoute = RouteDefinition & { method: 'GET'; params?: undefined };

/** The URL the browser asks for a route at, with `query` as its query string. */
export function urlOf<D extends FirstCallRoute>(route: D, query?: NonNullable<CallInput<D>['query']>): string {
  const search = new URLSearchParams(Object.entries(query ?? {}).map(([key, value]) => [key, String(value)]));
  return `${API_PREFIX}${route.path}${query ? `?${search}` : ''}`;
}

/** What the script sends, made from the contract's route table as index.html is built. */
export function firstCallsConfig(): FirstCallsConfig {
  return {
    settings: urlOf(serviceRoutes.settings),
    staffRefresh: urlOf(authRoutes.refreshStaff),
    participantRefresh: urlOf(authRoutes.refreshParticipant),
    presenceCookie: PRESENCE_COOKIE,
    firstPages: {
      [FIRST_PAGE_SCREENS.clientsList]: urlOf(clientListRoute, CLIENTS_FIRST_PAGE),
      [FIRST_PAGE_SCREENS.participantDashboard]: urlOf(dashboardRoute),
    },
  };
}

/** The script index.html runs first: `startFirstCalls` (src/boot/first-calls.ts) with its calls. */
export function firstCallsSource(): string {
  return `(${startFirstCalls.toString()})(window, ${JSON.stringify(firstCallsConfig())});`;
}

/**
 * Puts the first calls' script at the top of index.html's head, in development and in the
 * build, so the browser sends them as it reads the page, before any of the app's files.
 */
export function firstCallsScript(): Plugin {
  return {
    name: 'pss-first-calls',
    transformIndexHtml() {
      return [{ tag: 'script', children: firstCallsSource(), injectTo: 'head-prepend' }];
    },
  };
}
