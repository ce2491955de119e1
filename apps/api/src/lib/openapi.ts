import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { errorCodes } from '@pss/contract';
import { markRoutesPublic } from './public-routes.js';

const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

/**
 * The OpenAPI document is generated from the same zod schemas that validate requests.
 * Each operation says who may call it; `/api/openapi.json` serves it and `/api/docs`
 * shows it. `test/openapi-lint.test.ts` holds it to Redocly's `recommended` rules, so
 * tools that read it (client generators, gateways) take it as it is.
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
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative: the document is served by the API it describes, whatever its public address.
      servers: [{ url: '/', description: 'This server; every path but /metrics begins with /api.' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const access = input.route.config?.access;
      const schema = transformed.schema as Record<string, unknown>;
      if (access === 'public') {
        // Stated, not left out: without it a reader cannot tell "open" from "undocumented".
        schema.security = [];
      } else if (access) {
        schema.security = [{ bearerAuth: [] }];
        const who =
          access === 'admin'
            ? 'staff (superadmin or client administrator)'
            : access === 'user'
              ? 'staff, or a participant about themselves'
              : access === 'enrolment'
                ? 'staff, or a staff member half signed in who must set up a second factor (their `mfa_token`)'
                : access;
        schema.description = [`**Access:** ${who}.`, schema.description].filter(Boolean).join('\n\n');
      }
      const produces = schema.produces as string[] | undefined;
      if (produces?.length && !schema.response) {
        // A file (a CSV, a workbook): say which types it comes in, where the generator says nothing.
        schema.response = {
          200: {
            description: 'The file.',
            content: Object.fromEntries(
              produces.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
            ),
          },
        };
      }
      if (input.route.config?.redirects && !schema.response) {
        // A browser navigation (the identity provider's sign-in): it answers where to go, not JSON.
        schema.response = {
          302: {
            description: 'Redirects the browser; `Location` says where.',
            headers: { Location: { type: 'string' } },
          },
        };
      }
      const consumes = schema.consumes as string[] | undefined;
      if (consumes?.includes('multipart/form-data') && !schema.body) {
        // Uploads are read from the request stream by the handler (lib/uploads.ts), so the
        // route has no body schema for Fastify to validate; the document still shows it.
        schema.body = {
          type: 'object',
          required: ['file'],
          properties: { file: { type: 'string', format: 'binary', description: 'The file to upload.' } },
        };
      }
      return transformed;
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const document = documentObject.openapiObject as OpenApiDocument;
      document.components = {
        ...document.components,
        schemas: { ...document.components?.schemas, Error: errorSchema },
        responses: {
          ...document.components?.responses,
          Error: {
            description:
              'A catalogue error: `errorCode` says which (its HTTP status is the catalogue’s), `message` is English ' +
              'text, `details` carries e.g. the fields of a VALIDATION_ERROR.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
          Unavailable: {
            description:
              '`DATABASE_UNAVAILABLE`: the database connection was lost (a failover, a restart) while the call ' +
              'ran; a write may or may not have been made. Ask again after `Retry-After` seconds.',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      };
      for (const [url, item] of Object.entries(document.paths ?? {})) {
        for (const method of httpMethods) {
          const operation = item[method];
          if (!operation) continue;
          operation.operationId ??= operationId(method, url);
          // Every call can be refused (validation, access, not found): one shared description.
          operation.responses = {
            // Any call may meet a lost database connection (docs/design/faults.md),
            // unless the route says what its 503 means (the readiness check).
            '503': { $ref: '#/components/responses/Unavailable' },
            ...operation.responses,
            '4XX': { $ref: '#/components/responses/Error' },
          };
        }
      }
      return document as typeof documentObject.openapiObject;
    },
  });

  await app.register(async (docs) => {
    markRoutesPublic(docs);
    await docs.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
    docs.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
}

interface OpenApiOperation {
  operationId?: string;
  responses?: Record<string, unknown>;
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, unknown>; responses?: Record<string, unknown> };
  paths?: Record<string, Partial<Record<(typeof httpMethods)[number], OpenApiOperation>>>;
}

const errorSchema = {
  type: 'object',
  required: ['errorCode', 'message'],
  properties: {
    errorCode: { type: 'string', enum: errorCodes },
    message: { type: 'string' },
    details: { description: 'More about the error, e.g. `fields[]` of a VALIDATION_ERROR.' },
  },
};

/**
 * A stable id from the method and path (`GET /api/cmes/{id}` → `getCmesById`), so client
 * generators name calls the same way from one release to the next.
 */
function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? ['by', ...splitWords(param[1] ?? '')] : splitWords(segment);
    });
  return [method.toLowerCase(), ...words.map((w) => w.charAt(0).toUpperCase() + w.slice(1))].join('');
}

function splitWords(segment: string): string[] {
  return segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
}
