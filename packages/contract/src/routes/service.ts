import { healthResponse } from '../health.js';
import { clientSettings } from '../auth.js';
import { route } from '../route.js';

/** Calls about the service itself, open to anyone. */
export const serviceRoutes = {
  health: route({ method: 'GET', path: '/health', access: 'public', reply: healthResponse }),
  settings: route({ method: 'GET', path: '/settings', access: 'public', reply: clientSettings }),
};
