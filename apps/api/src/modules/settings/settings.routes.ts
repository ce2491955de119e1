import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PRESENCE_COOKIE, clientSettings, type ClientSettings } from '@pss/contract';

/** Settings the web app needs before sign-in: its session timers come from server config. */
export function registerSettingsRoutes(
  app: FastifyInstance,
  settings: Omit<ClientSettings, 'presence_cookie_name'>,
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/settings',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Settings'],
        summary: 'Session timers for the web app',
        response: { 200: clientSettings },
      },
    },
    async () => ({ ...settings, presence_cookie_name: PRESENCE_COOKIE }),
  );
}
