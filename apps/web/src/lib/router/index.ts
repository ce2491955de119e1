/**
 * The app's router (see ./router.ts for why it is the app's own): React Router's names for
 * the parts the app uses, so a screen imports what it would have imported from React Router.
 */
export {
  createBrowserRouter,
  createMemoryRouter,
  type Blocker,
  type BlockerFunction,
  type NavigateOptions,
  type Router,
} from './router';
export { type Location } from './history';
export { type Params, type RouteObject } from './match';
export {
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  RouterProvider,
  Routes,
  useBlocker,
  useLocation,
  useNavigate,
  useNavigation,
  useOutletContext,
  useParams,
  useRouter,
  useSearchParams,
  type LinkProps,
  type NavigateFunction,
  type NavLinkProps,
} from './react';
