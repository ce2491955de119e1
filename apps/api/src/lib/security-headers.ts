import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer, and `Cache-Control: no-store` on the API's.
 *
 * @fastify/helmet built a new helmet middleware, parsing the whole policy again, for every
 * request, in two hooks; the policy never changes, so its middleware is built once here and
 * runs in one synchronous hook. The headers are the same: the same helmet, the same options.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const setHeaders = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    // Helmet sets static headers and calls back at once; since helmet 8.1 it throws instead
    // of passing an error, which Fastify turns into the error answer.
    setHeaders(request.raw, reply.raw, () => done());
  });
  // API answers may carry personal data: never cache them.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs')) {
      reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });
}
