import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ParsedRequest, ReplyInputOf, RouteDefinition } from '@pss/contract';
import { auditKindOf, routeName, statementRecordedCalls } from '../modules/audit/audited-routes.js';
import type { CallRecorder } from '../modules/audit/call-recorder.service.js';

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
   * A limit on calls per caller's address (@fastify/rate-limit, registered in app.ts with no
   * global limit): for a public call that looks something up, so that it cannot be used to
   * enumerate. Its description should say the limit.
   */
  rateLimit?: RateLimitOptions;
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
    typed.route({
      method: definition.method,
      url: definition.path,
      config: {
        access: definition.access,
        redirects: status === 302,
        ...(docs.rateLimit ? { rateLimit: docs.rateLimit } : {}),
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
        const run = async () => handler(request as unknown as ContractRequest<D>, reply);
        const result =
          kind && name && recorder ? await recorder.record(kind, name, definition, request, run) : await run();
        if (result === reply || reply.sent) return reply;
        reply.status(status);
        return status === 204 ? reply.send(null) : result;
      },
    });
  };
}
