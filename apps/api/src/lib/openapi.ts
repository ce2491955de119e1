import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { markRoutesPublic } from './public-routes.js';

/**
 * The OpenAPI document is generated from the same zod schemas that validate requests.
 * Each operation says who may call it; `/api/openapi.json` serves it and `/api/docs`
 * shows it.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Patient Simulation Platform API',
        version: '0.1.0',
        description:
          'JSON API of the Patient Simulation Platform. Errors answer `{ errorCode, message, details? }`. ' +
          'Lists take `page` (1-based), `limit` (≤ 200), `search`, `sort` (`field:ASC,other:DESC`) and `filter` (JSON).',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const access = input.route.config?.access;
      const schema = transformed.schema as Record<string, unknown>;
      if (access && access !== 'public') {
        schema.security = [{ bearerAuth: [] }];
        const who = access === 'admin' ? 'staff (superadmin or client administrator)' : access;
        schema.description = [`**Access:** ${who}.`, schema.description].filter(Boolean).join('\n\n');
      }
      return transformed;
    },
  });

  await app.register(async (docs) => {
    markRoutesPublic(docs);
    await docs.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
    docs.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
}
