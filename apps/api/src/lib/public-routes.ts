import type { FastifyInstance } from 'fastify';

/**
 * Marks every route registered inside this plugin scope as public. For third-party
 * plugins (API docs, static files) whose routes we do not declare ourselves.
 */
export function markRoutesPublic(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), access: route.config?.access ?? 'public' };
  });
}
