import { clientListQuery, clientPage } from '../clients.js';
import { dashboard } from '../participant-side.js';
import { route } from '../route.js';

/**
 * The first data of the screens people land on, declared here and taken into their tables
 * (`attemptRoutes.dashboard`, `clientRoutes.list`). The web app asks for them as it starts
 * (apps/web/src/lib/session/early-start.ts), in the code every page downloads first: imported
 * from this module, they come without the rest of their tables.
 */
export const dashboardRoute = route({ method: 'GET', path: '/dashboard', access: 'participant', reply: dashboard });

export const clientListRoute = route({
  method: 'GET',
  path: '/clients',
  access: 'admin',
  query: clientListQuery,
  reply: clientPage,
});
