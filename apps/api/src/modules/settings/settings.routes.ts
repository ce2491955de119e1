import type { FastifyInstance } from 'fastify';
import { PRESENCE_COOKIE, serviceRoutes, type ClientSettings } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';

/** Settings the web app needs before sign-in: its session timers come from server config. */
export function registerSettingsRoutes(
  app: FastifyInstance,
  settings: Omit<ClientSettings, 'presence_cookie_name'>,
): void {
  contractRoutes(app)(
    serviceRoutes.settings,
    { tags: ['Settings'], summary: 'Session timers for the web app' },
    async () => ({
      ...settings,
      presence_cookie_name: PRESENCE_COOKIE,
    }),
  );
}
