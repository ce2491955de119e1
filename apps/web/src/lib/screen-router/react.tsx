import {
  createContext,
  createElement,
  forwardRef,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type CSSProperties,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { createPath, type Location, type Path } from './history';
import { matchRoutes, rankRoutes, resolvePath, type Params, type RouteMatch, type ScreenRoute } from './match';
import {
  createMemoryScreenRouter,
  type Blocker,
  type BlockerFunction,
  type NavigateOptions,
  type ScreenRouter,
  type RouterState,
} from './router';

const RouterContext = createContext<ScreenRouter | null>(null);
const StateContext = createContext<RouterState | null>(null);

interface RouteContextValue {
  /** The URL part the route matched: where its relative links start. */
  pathname: string;
  params: Params;
  /** What the route's `<Outlet />` renders: the next level. */
  outlet: ReactNode;
}
const RouteContext = createContext<RouteContextValue>({ pathname: '/', params: {}, outlet: null });
const OutletContext = createContext<unknown>(undefined);

function useRouterState(): RouterState {
  const state = useContext(StateContext);
  if (!state) throw new Error('A router hook was used outside <ScreenRouterProvider>.');
  return state;
}

/** The router itself, for code that must read its state as it is now rather than as rendered. */
export function useScreenRouter(): ScreenRouter {
  const router = useContext(RouterContext);
  if (!router) throw new Error('A router hook was used outside <ScreenRouterProvider>.');
  return router;
}

/** Renders the levels of a match from `index` down: each level's element, its outlet the next. */
function renderMatches(router: ScreenRouter, matches: RouteMatch[], index = 0): ReactNode {
  const match = matches[index];
  if (!match) return null;
  const parts = router.partsOf(match.route);
  const element = parts.element ?? (parts.Component ? createElement(parts.Component) : <Outlet />);
  const value: RouteContextValue = {
    pathname: match.pathname,
    params: match.params,
    outlet: renderMatches(router, matches, index + 1),
  };
  return <RouteContext.Provider value={value}>{element}</RouteContext.Provider>;
}

function firstFallback(matches: RouteMatch[] | null): ReactNode {
  const Fallback = matches?.find(({ route }) => route.HydrateFallback)?.route.HydrateFallback;
  return Fallback ? <Fallback /> : null;
}

export function ScreenRouterProvider({ router }: { router: ScreenRouter }): ReactElement {
  const state = useSyncExternalStore(router.subscribe, () => router.state);
  let content: ReactNode;
  if (!state.initialized) content = firstFallback(state.matches);
  else if (state.failed && state.matches?.some(({ route }) => route.lazy && router.partsOf(route) === route)) {
    content = (
      <p role="alert" style={{ padding: 24 }}>
        This page could not be loaded. <a href={createPath(state.location)}>Try again</a>
      </p>
    );
  } else content = state.matches ? renderMatches(router, state.matches) : null;
  return (
    <RouterContext.Provider value={router}>
      <StateContext.Provider value={state}>{content}</StateContext.Provider>
    </RouterContext.Provider>
  );
}

/** The next level of the matched routes; `context` is what that level's `useOutletContext` reads. */
export function Outlet({ context }: { context?: unknown }): ReactNode {
  const { outlet } = useContext(RouteContext);
  return context === undefined ? outlet : <OutletContext.Provider value={context}>{outlet}</OutletContext.Provider>;
}

export function useOutletContext<T = unknown>(): T {
  return useContext(OutletContext) as T;
}

export function useLocation(): Location {
  return useRouterState().location;
}

export function useParams<T extends Params = Params>(): T {
  return useContext(RouteContext).params as T;
}

export function useNavigation(): { state: 'idle' | 'loading' } {
  const { navigation } = useRouterState();
  return useMemo(() => ({ state: navigation }), [navigation]);
}

export type To = string;
export type NavigateFunction = {
  (to: To, options?: NavigateOptions): void;
  (delta: number): void;
};

/** Where `to` goes from the route this is rendered in. */
function useResolved(to: To): Path {
  const { pathname: from } = useContext(RouteContext);
  const { location } = useRouterState();
  return useMemo(() => resolvePath(to, from, location.pathname), [to, from, location.pathname]);
}

export function useNavigate(): NavigateFunction {
  const router = useScreenRouter();
  const { pathname: from } = useContext(RouteContext);
  return useCallback(
    (to: To | number, options?: NavigateOptions) => {
      if (typeof to === 'number') router.navigate(to);
      else router.navigate(resolvePath(to, from, router.state.location.pathname), options);
    },
    [router, from],
  ) as NavigateFunction;
}

/** Navigates once it is rendered (a redirect). */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions): null {
  const navigate = useNavigate();
  // By value: a redirect rendered again with an equal `state` object is the same redirect.
  const stateJson = JSON.stringify(state ?? null);
  useEffect(() => {
    navigate(to, { replace, state: JSON.parse(stateJson) as unknown });
  }, [navigate, to, replace, stateJson]);
  return null;
}

type SearchParamsInit = URLSearchParams | string | Record<string, string>;

/**
 * The query string, and a way to change it. A functional update starts from the query as it
 * is now (the router's), not as this render saw it: two changes made one after the other
 * before the screen has rendered the first both stand.
 */
export function useSearchParams(): [
  URLSearchParams,
  (next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit), options?: NavigateOptions) => void,
] {
  const router = useScreenRouter();
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit), options?: NavigateOptions) => {
      const value = typeof next === 'function' ? next(new URLSearchParams(router.state.location.search)) : next;
      const query = new URLSearchParams(value).toString();
      router.navigate(
        { pathname: router.state.location.pathname, search: query ? `?${query}` : '', hash: '' },
        options,
      );
    },
    [router],
  );
  return [params, setParams];
}

/**
 * Asks before leaving: while `shouldBlock` answers true for a navigation, it waits, and the
 * blocker says so (`state: 'blocked'`) until the screen calls `proceed` or `reset`.
 */
export function useBlocker(shouldBlock: boolean | BlockerFunction): Blocker {
  const router = useScreenRouter();
  useRouterState();
  const key = useId();
  const decide = useCallback<BlockerFunction>(
    (args) => (typeof shouldBlock === 'function' ? shouldBlock(args) : shouldBlock),
    [shouldBlock],
  );
  const blocker = router.getBlocker(key, decide);
  useEffect(() => {
    router.getBlocker(key, decide);
  }, [router, key, decide]);
  useEffect(() => () => router.deleteBlocker(key), [router, key]);
  return blocker;
}

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    event.button === 0 &&
    (!target || target === '_self') &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  );
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  state?: unknown;
}

/** A link the router follows in the page; a new tab, a download or a modified click is the browser's. */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, onClick, target, ...rest },
  ref,
) {
  const router = useScreenRouter();
  const path = useResolved(to);
  const href = createPath(path);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || !isPlainLeftClick(event, target) || rest.download !== undefined) return;
    event.preventDefault();
    // A link to where one already is does not add a step to go back through.
    const here = createPath(router.state.location) === href;
    router.navigate(path, { replace: replace ?? here, state });
  };
  return <a {...rest} ref={ref} href={href} target={target} onClick={handleClick} />;
});

type WithActive<T> = T | ((props: { isActive: boolean }) => T);

export interface NavLinkProps extends Omit<LinkProps, 'className' | 'style' | 'children'> {
  /** Active only on its own path, not on the paths below it. */
  end?: boolean;
  className?: WithActive<string | undefined>;
  style?: WithActive<CSSProperties | undefined>;
  children?: WithActive<ReactNode>;
}

/** A link that knows when it is where one is (`aria-current="page"`, the class `active`). */
export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(
  { end, className, style, children, ...rest },
  ref,
) {
  const { pathname } = useResolved(rest.to);
  const location = useLocation();
  const here = location.pathname.toLowerCase().replace(/\/+$/, '') || '/';
  const target = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  const isActive = here === target || (!end && target !== '/' && here.startsWith(`${target}/`));
  const resolvedClass = typeof className === 'function' ? className({ isActive }) : className;
  return (
    <Link
      {...rest}
      ref={ref}
      aria-current={isActive ? 'page' : undefined}
      className={[resolvedClass, isActive ? 'active' : null].filter(Boolean).join(' ') || undefined}
      style={typeof style === 'function' ? style({ isActive }) : style}
    >
      {typeof children === 'function' ? children({ isActive }) : children}
    </Link>
  );
});

/* ---------- For tests: a router in memory around a piece of the app ---------- */

/** A memory router whose every URL renders `children` (unit tests of one screen or hook). */
export function MemoryScreenRouter({ initialEntries, children }: { initialEntries?: string[]; children?: ReactNode }) {
  const childrenRef = useRef(children);
  childrenRef.current = children;
  const [router] = useState(() =>
    createMemoryScreenRouter([{ path: '*', Component: () => <>{childrenRef.current}</> }], { initialEntries }),
  );
  useEffect(() => () => router.dispose(), [router]);
  return <ScreenRouterProvider router={router} />;
}

export function Route(_props: { path?: string; index?: boolean; element?: ReactNode; children?: ReactNode }): null {
  return null;
}

/** Routes written as `<Route>` elements, matched against the URL where they are rendered. */
export function Routes({ children }: { children: ReactNode }): ReactNode {
  const router = useScreenRouter();
  const location = useLocation();
  const branches = useMemo(() => rankRoutes(routesOf(children)), [children]);
  const matches = matchRoutes(branches, location.pathname);
  return matches ? renderMatches(router, matches) : null;
}

function routesOf(children: ReactNode): ScreenRoute[] {
  const list = Array.isArray(children) ? children : [children];
  return list
    .filter(
      (child): child is ReactElement<{ path?: string; index?: boolean; element?: ReactNode; children?: ReactNode }> =>
        Boolean(child && typeof child === 'object' && 'props' in child),
    )
    .map(({ props }) => ({
      path: props.path,
      index: props.index,
      element: props.element,
      children: props.children ? routesOf(props.children) : undefined,
    }));
}
