import { healthResponse } from '../health.js';
import { clientSettings } from '../auth.js';
import { route } from '../route.js';
import { SitePageName, sitePage } from '../site-pages.js';
import { z } from 'zod';

/** Calls about the service itself, open to anyone. */
export const serviceRoutes = {
  health: route({ method: 'GET', path: '/health', access: 'public', reply: healthResponse }),
  settings: route({ method: 'GET', path: '/settings', access: 'public', reply: clientSettings }),
  page: route({
    method: 'GET',
    path: '/pages/:name',
    access: 'public',
    params: z.object({ name: SitePageName }),
    reply: sitePage,
  }),
};
