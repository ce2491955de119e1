import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { route } from '@pss/contract';
import { contractRoutes } from './contract-routes.js';

const renameClient = route({
  method: 'PUT',
  path: '/things/:id',
  access: 'public',
  audit: { kind: 'change', name: 'things.rename' },
  params: z.object({ id: z.string() }),
  body: z.strictObject({ name: z.string().min(1) }),
  status: 201,
  reply: z.object({ id: z.string(), name: z.string() }),
});

/**
 * The server side of the route table, checked when this file compiles (`npm run
 * typecheck`): a handler that reads a parameter the path does not have, or answers a shape
 * the reply schema does not take, fails type-checking. Never run: it only has to compile.
 */
export function handlersThatMustNotCompile(implement: ReturnType<typeof contractRoutes>) {
  // @ts-expect-error a parameter the path does not name
  implement(renameClient, { summary: 'x' }, async (request) => ({ id: request.params.thingId, name: 'x' }));
  // @ts-expect-error an answer without a field the reply requires
  implement(renameClient, { summary: 'x' }, async (request) => ({ id: request.params.id }));
}

describe('routes registered from the contract', () => {
  it('take their method, path, schemas, status and access from the declaration', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const implement = contractRoutes(app);
    implement(renameClient, { summary: 'Rename a thing' }, async (request) => ({
      id: request.params.id,
      name: request.body.name,
      secret: 'not in the reply schema',
    }));
    await app.ready();
    const route = app.printRoutes({ includeHooks: false });
    expect(route).toContain('things/');

    const done = await app.inject({ method: 'PUT', url: '/things/7', payload: { name: 'Lamp' } });
    expect(done.statusCode).toBe(201);
    // The reply schema strips what it does not name.
    expect(done.json()).toEqual({ id: '7', name: 'Lamp' });

    const refused = await app.inject({ method: 'PUT', url: '/things/7', payload: { name: '' } });
    expect(refused.statusCode).toBe(400);
    await app.close();
  });
});
