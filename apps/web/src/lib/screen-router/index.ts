/**
 * The screen router: the app's own, not React Router. No maintained router fits the sign-in
 * screen's bundle budget (React Router's data router or TanStack Router would each be several
 * times this whole module; the figures are in docs/benchmarks.md, "The router decision"), so
 * it is named as its own. Its creation and provider are named for it (`createScreenRouter`,
 * `ScreenRouterProvider`, `ScreenRoute`); the hooks and links keep the names every React
 * router uses (`Link`, `useParams`, `useNavigate`, `useSearchParams`, `useBlocker`), with
 * React Router's meaning for what they do.
 *
 * What it does: nested routes from one table (app/router.tsx), ranked static segment, then
 * parameter, then splat (an index route over its parent); `lazy` routes whose code is fetched
 * while the current screen stays up (`useNavigation().state === 'loading'`), a later
 * navigation winning over a slower earlier one; links and redirects relative to their route;
 * outlet context; a query-string setter whose functional update starts from the URL as it is
 * now; asking before leaving unsaved work (`useBlocker`), also on back and forward; a screen
 * whose code fails to arrive loads the page from the server.
 *
 * What it does not do: loaders, actions, fetchers, error boundaries per route, scroll
 * restoration, server rendering, `<Form>`, or any data API — a screen reads its data with
 * TanStack Query, shows its own errors (components/query-error.tsx) and starts at the top.
 * Whoever needs one of these adds it here, with a test in router.test.tsx, or moves the app to
 * a maintained router once one fits the budget.
 */
export {
  createScreenRouter,
  createMemoryScreenRouter,
  type Blocker,
  type BlockerFunction,
  type NavigateOptions,
  type ScreenRouter,
} from './router';
export { type Location } from './history';
export { type Params, type ScreenRoute } from './match';
export {
  Link,
  MemoryScreenRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  ScreenRouterProvider,
  Routes,
  useBlocker,
  useLocation,
  useNavigate,
  useNavigation,
  useOutletContext,
  useParams,
  useScreenRouter,
  useSearchParams,
  type LinkProps,
  type NavigateFunction,
  type NavLinkProps,
} from './react';
