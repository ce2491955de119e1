import { createBrowserRouter, Outlet } from 'react-router';
import { ClientPage } from '../features/clients/client-page';
import { ClientsListPage } from '../features/clients/clients-list-page';
import { KeycloakLandingPage } from '../features/auth/keycloak-landing-page';
import { LoggedOutPage } from '../features/auth/logged-out-page';
import { LoginLandingPage } from '../features/auth/login-landing-page';
import { UnauthorizedPage } from '../features/auth/unauthorized-page';
import { HomePage } from './home-page';
import { NotFoundPage } from './not-found-page';
import { RequireStaff, RequireSuperadmin } from './route-gates';
import { SessionProvider, useSession } from '../lib/session/session-provider';

function Root() {
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}

/** Client Options: breadcrumbs back to the clients list only for superadmins. */
function ClientRoute() {
  const { state } = useSession();
  return <ClientPage showBreadcrumbs={state.status === 'signed-in' && state.user.role === 'superadmin'} />;
}

export const routes = [
  {
    element: <Root />,
    children: [
      // Public routes of spec §2: no signed-in user needed.
      { path: '/', element: <HomePage /> },
      { path: '/login-landing', element: <LoginLandingPage /> },
      { path: '/keycloak-landing', element: <KeycloakLandingPage /> },
      { path: '/logged-out', element: <LoggedOutPage /> },
      { path: '/unauthorized', element: <UnauthorizedPage /> },
      {
        element: <RequireStaff />,
        children: [
          {
            path: '/project-management',
            element: <RequireSuperadmin>{() => <ClientsListPage />}</RequireSuperadmin>,
          },
          { path: '/project-management/clients/:clientId', element: <ClientRoute /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
