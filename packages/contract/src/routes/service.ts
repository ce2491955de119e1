import { healthResponse, liveResponse, readyResponse } from '../health.js';
import { clientSettings } from '../auth.js';
import { route } from '../route.js';
import { SitePageName, sitePage } from '../site-pages.js';
import { z } from 'zod';

/** Calls about the service itself, open to anyone. */
export const serviceRoutes = {
  health: route({ method: 'GET', path: '/health', access: 'public', reply: healthResponse }),
  live: route({ method: 'GET', path: '/health/live', access: 'public', reply: liveResponse }),
  ready: route({ method: 'GET', path: '/health/ready', access: 'public', reply: readyResponse }),
  settings: route({ method: 'GET', path: '/settings', access: 'public', reply: clientSettings }),
  page: route({
    method: 'GET',
    path: '/pages/:name',
    access: 'public',
    params: z.object({ name: SitePageName }),
    reply: sitePage,
  }),
};

/**
 * Prometheus metrics in the text exposition format. Served at the root (`/metrics`, where
 * scrapers look), not under `/api`; it takes `Authorization: Bearer <METRICS_TOKEN>`
 * instead of a user's token, and answers 404 when no METRICS_TOKEN is configured.
 */
export const operationsRoutes = {
  metrics: route({ method: 'GET', path: '/metrics', access: 'public', produces: 'text/plain' }),
};
