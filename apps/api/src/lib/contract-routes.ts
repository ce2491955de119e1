import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ParsedRequest, ReplyInputOf, RouteDefinition } from '@pss/contract';
import { auditKindOf, routeName, statementRecordedCalls } from '../modules/audit/audited-routes.js';
import type { CallRecorder } from '../modules/audit/call-recorder.service.js';
import { isLimitedCall } from '../modules/call-limits/call-limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Records calls in the audit trail (app.ts); routes registered without one record nothing. */
    callRecorder?: CallRecorder;
  }
}

/** What the route's documentation adds to its contract declaration (the OpenAPI text). */
export interface RouteDocs {
  tags?: string[];
  summary: string;
  description?: string;
  /**
   * A public read limited as anonymous calls that write are (modules/call-limits): one that
   * looks up what the caller gives, so that it cannot be used to enumerate. Its description
   * should say the limit.
   */
  limited?: boolean;
}

/** The request as the contract's schemas parsed it. */
export type ContractRequest<D extends RouteDefinition> = Omit<FastifyRequest, 'params' | 'query' | 'body'> &
  ParsedRequest<D>;

/**
 * A handler answers what the contract's reply schema takes (the route's status is the
 * contract's), or the reply itself when it has sent something else (a file, a stream).
 */
export type Handler<D extends RouteDefinition> = (
  request: ContractRequest<D>,
  reply: FastifyReply,
) => Promise<ReplyInputOf<D> | FastifyReply> | ReplyInputOf<D> | FastifyReply;

/**
 * Registers routes from the contract's route table: method, path, schemas, success status
 * and access come from the declaration, so the server cannot drift from what the web app
 * calls; the route file adds the documentation and the handler. A call that changes state or
 * downloads personal data is recorded in the audit trail by its route's name (see
 * modules/audit/audited-routes.ts): a change runs whole in one transaction with its event.
 */
export function contractRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  return function implement<D extends RouteDefinition>(definition: D, docs: RouteDocs, handler: Handler<D>): void {
    const status = definition.status ?? 200;
    const name = routeName(definition);
    const kind = auditKindOf(definition);
    const recorder = app.callRecorder;
    const limits = isLimitedCall(definition, docs) ? app.callLimits : undefined;
    // The count is its own statement on the database: inside a change's transaction it would
    // roll back with a refusal (and wait on itself on the embedded database's one connection).
    // Sign-in calls and anonymous changes (a one-click unsubscribe) run on the database itself.
    if (limits && kind === 'change' && !name?.startsWith('auth.') && definition.access !== 'public') {
      throw new Error(`${definition.method} ${definition.path}: a limited call must not run in a change's transaction`);
    }
    typed.route({
      method: definition.method,
      url: definition.path,
      config: {
        access: definition.access,
        redirects: status === 302,
      },
      // A download's event is written as its file is about to go (modules/audit/call-recorder.service.ts).
      ...(kind === 'download' && recorder
        ? {
            onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
              await recorder.downloaded(definition, request, reply.statusCode);
              return payload;
            },
          }
        : {}),
      // A change's answer goes out once its transaction has committed, even one its handler sent
      // itself. (A change written in one statement, an answer, holds no transaction open.)
      ...(kind === 'change' && recorder && !statementRecordedCalls.has(name ?? '')
        ? {
            onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
              recorder.settled(request, reply.statusCode);
              return payload;
            },
          }
        : {}),
      schema: {
        ...(docs.tags ? { tags: docs.tags } : {}),
        summary: docs.summary,
        ...(docs.description ? { description: docs.description } : {}),
        ...(definition.params ? { params: definition.params } : {}),
        ...(definition.query ? { querystring: definition.query } : {}),
        ...(definition.body ? { body: definition.body } : {}),
        ...(definition.upload ? { consumes: ['multipart/form-data'] } : {}),
        ...(definition.produces ? { produces: [definition.produces].flat() } : {}),
        ...(definition.reply ? { response: { [status]: definition.reply } } : {}),
      },
      handler: async (request, reply) => {
        // An anonymous call is counted before its handler runs (and, when recorded, as part of
        // its call: a refusal is recorded as the handler's would be).
        const run = async () => {
          if (limits) await limits.take(name ?? `${definition.method} ${definition.path}`, request.ip);
          return handler(request as unknown as ContractRequest<D>, reply);
        };
        const result =
          kind && name && recorder ? await recorder.record(kind, name, definition, request, run) : await run();
        if (result === reply || reply.sent) return reply;
        reply.status(status);
        return status === 204 ? reply.send(null) : result;
      },
    });
  };
}
