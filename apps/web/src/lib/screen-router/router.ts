import {
  createBrowserHistory,
  createMemoryHistory,
  createPath,
  type History,
  type HistoryAction,
  type Location,
  type Path,
} from './history';
import { matchRoutes, rankRoutes, resolvePath, type RouteMatch, type ScreenRoute, type RouteParts } from './match';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** Asked before each navigation while a screen has unsaved work (`useBlocker`). */
export type BlockerFunction = (args: {
  currentLocation: Location;
  nextLocation: Location;
  historyAction: HistoryAction;
}) => boolean;

export interface Blocker {
  state: 'unblocked' | 'blocked' | 'proceeding';
  /** Where the blocked navigation was going. */
  location?: Location;
  /** Goes on with the blocked navigation. */
  proceed?: () => void;
  /** Stays here. */
  reset?: () => void;
}

export interface RouterState {
  location: Location;
  /** What the location renders; null when no route matches. */
  matches: RouteMatch[] | null;
  /** 'loading' while the next screen's code is fetched (the current one stays up). */
  navigation: 'idle' | 'loading';
  /** How the current location was reached. */
  historyAction: HistoryAction;
  /** False until the first screen's code has arrived. */
  initialized: boolean;
  blockers: ReadonlyMap<string, Blocker>;
  /** A screen's code could not be fetched (the network, or a deployment since the page was loaded). */
  failed?: boolean;
}

const UNBLOCKED: Blocker = { state: 'unblocked' };

/**
 * The app's router: the URL, the routes it matches, and the way from one to the next.
 *
 * The app's own in place of React Router, for the small part of it the app uses: see
 * ./index.ts for what it does and does not do, and why it is the app's own.
 */
export class ScreenRouter {
  state: RouterState;
  private readonly branches;
  private readonly listeners = new Set<() => void>();
  private readonly lazyParts = new WeakMap<ScreenRoute, RouteParts>();
  private readonly blockerFunctions = new Map<string, BlockerFunction>();
  /** Bumped by every navigation, so a slower earlier one does not land after a later one. */
  private navigationId = 0;
  /** A move back or forward the router made itself (undoing a blocked one): let it through. */
  private ignoreNextPop = false;
  private readonly unlisten: () => void;
  /** In the browser, a screen whose code fails to arrive is loaded from the server instead. */
  reloadOnFailure = false;

  constructor(
    routes: ScreenRoute[],
    readonly history: History,
  ) {
    this.branches = rankRoutes(routes);
    const location = history.location;
    const matches = matchRoutes(this.branches, location.pathname);
    const ready = !this.needsCode(matches);
    this.state = {
      location,
      matches,
      navigation: 'idle',
      historyAction: 'POP',
      initialized: ready,
      blockers: new Map(),
    };
    this.unlisten = history.listen((next, delta) => this.onPop(next, delta));
    if (!ready) {
      this.load(matches).then(
        () => this.set({ initialized: true }),
        (error: unknown) => {
          // Not reloaded: a file missing from this very page would reload it for ever.
          console.error(error);
          this.set({ initialized: true, failed: true });
        },
      );
    }
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** What a route renders: its own element or component, or what its `lazy` brought. */
  partsOf(route: ScreenRoute): RouteParts {
    return this.lazyParts.get(route) ?? route;
  }

  /** Goes to a path (a string from the root), or back and forward (`-1`). */
  navigate(target: string | Path | number, options: NavigateOptions = {}): void {
    if (typeof target === 'number') {
      this.history.go(target);
      return;
    }
    const to = typeof target === 'string' ? resolvePath(target, '/', this.state.location.pathname) : target;
    const action: HistoryAction = options.replace ? 'REPLACE' : 'PUSH';
    const next: Location = { ...to, state: options.state ?? null, key: '' };
    const blockedBy = this.blockerFor(next, action);
    if (blockedBy) {
      this.block(blockedBy, next, () => void this.go(next, action));
      return;
    }
    void this.go(next, action);
  }

  getBlocker(key: string, shouldBlock: BlockerFunction): Blocker {
    this.blockerFunctions.set(key, shouldBlock);
    return this.state.blockers.get(key) ?? UNBLOCKED;
  }

  deleteBlocker(key: string): void {
    this.blockerFunctions.delete(key);
    if (this.state.blockers.has(key)) {
      const blockers = new Map(this.state.blockers);
      blockers.delete(key);
      this.set({ blockers });
    }
  }

  dispose(): void {
    this.unlisten();
    this.listeners.clear();
  }

  private set(patch: Partial<RouterState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  private blockerFor(nextLocation: Location, historyAction: HistoryAction): string | null {
    if (this.blockerFunctions.size === 0) return null;
    const currentLocation = this.state.location;
    for (const [key, shouldBlock] of this.blockerFunctions) {
      if (this.state.blockers.get(key)?.state === 'proceeding') continue;
      if (shouldBlock({ currentLocation, nextLocation, historyAction })) return key;
    }
    return null;
  }

  private block(key: string, location: Location, proceed: () => void): void {
    const settle = (blocker: Blocker | null) => {
      const blockers = new Map(this.state.blockers);
      if (blocker) blockers.set(key, blocker);
      else blockers.delete(key);
      this.set({ blockers });
    };
    settle({
      state: 'blocked',
      location,
      proceed: () => {
        settle({ state: 'proceeding', location });
        proceed();
      },
      reset: () => settle(null),
    });
  }

  private needsCode(matches: RouteMatch[] | null): boolean {
    return (matches ?? []).some(({ route }) => route.lazy && !this.lazyParts.has(route));
  }

  /** Fetches the code of every matched route that has not arrived yet. */
  private async load(matches: RouteMatch[] | null): Promise<void> {
    const pending = (matches ?? []).filter(({ route }) => route.lazy && !this.lazyParts.has(route));
    await Promise.all(
      pending.map(async ({ route }) => {
        const parts = await route.lazy!();
        this.lazyParts.set(route, parts);
      }),
    );
  }

  /** Loads the next screen's code with the current one still up, then shows the next. */
  private async go(next: Location, action: HistoryAction): Promise<void> {
    const id = ++this.navigationId;
    const matches = matchRoutes(this.branches, next.pathname);
    if (this.needsCode(matches)) {
      // Said once: a screen that renders again because of it (a redirect) must not start over.
      if (this.state.navigation !== 'loading') this.set({ navigation: 'loading' });
      try {
        await this.load(matches);
      } catch (error) {
        this.failedToLoad(error, next);
        return;
      }
      if (id !== this.navigationId) return;
    }
    if (action === 'PUSH') this.history.push(next, next.state);
    else if (action === 'REPLACE') this.history.replace(next, next.state);
    const blockers = new Map([...this.state.blockers].filter(([, blocker]) => blocker.state !== 'proceeding'));
    this.set({
      location: this.history.location,
      matches,
      navigation: 'idle',
      historyAction: action,
      blockers,
      initialized: true,
      failed: false,
    });
  }

  private onPop(next: Location, delta: number | null): void {
    if (this.ignoreNextPop) {
      this.ignoreNextPop = false;
      return;
    }
    const blockedBy = delta ? this.blockerFor(next, 'POP') : null;
    if (blockedBy && delta) {
      // Undo the move while the screen asks; going on makes it again.
      this.ignoreNextPop = true;
      this.history.go(-delta);
      this.block(blockedBy, next, () => this.history.go(delta));
      return;
    }
    void this.go(next, 'POP');
  }

  /**
   * A screen's code did not arrive: most often the app was deployed again and this page
   * names files that are gone. Loading the page from the server gets the new ones.
   */
  private failedToLoad(error: unknown, location: Location): void {
    console.error(error);
    if (this.reloadOnFailure) window.location.assign(createPath(location));
    else this.set({ navigation: 'idle', failed: true });
  }
}

export function createScreenRouter(routes: ScreenRoute[]): ScreenRouter {
  const router = new ScreenRouter(routes, createBrowserHistory());
  router.reloadOnFailure = true;
  return router;
}

export function createMemoryScreenRouter(
  routes: ScreenRoute[],
  options: { initialEntries?: string[]; initialIndex?: number } = {},
): ScreenRouter {
  return new ScreenRouter(routes, createMemoryHistory(options.initialEntries, options.initialIndex));
}
