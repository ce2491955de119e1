import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The request being served, reachable from code that is not handed it (a job's enqueue). */
const storage = new AsyncLocalStorage<{ requestId: string; address: string }>();

/** An incoming X-Request-Id is kept only when it looks like an id (it ends up in every log line). */
const acceptableId = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Fastify's `genReqId`: the caller's X-Request-Id (a proxy's, so its log and ours join up),
 * or a new UUID. Unique across processes, unlike Fastify's per-process counter.
 */
export function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && acceptableId.test(given) ? given : randomUUID();
}

/** Answers every request with its id, and makes the id and address reachable (`currentRequestId`, `currentAddress`). */
export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request: FastifyRequest, reply, done) => {
    reply.header('x-request-id', request.id);
    // Run the rest of the request's hooks and its handler inside the store.
    storage.run({ requestId: request.id, address: request.ip }, done);
  });
}

/** The id of the request whose handling is running now, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/**
 * The address of the caller whose request is running now, as the sign-in limits count it
 * (the connection's peer, or a trusted proxy's X-Forwarded-For): for a check deep in a
 * service that is not handed the request (a second factor's code).
 */
export function currentAddress(): string | undefined {
  return storage.getStore()?.address;
}
