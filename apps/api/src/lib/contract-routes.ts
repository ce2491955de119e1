import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ParsedRequest, ReplyInputOf, RouteAudit, RouteDefinition } from '@pss/contract';
import { UnitKey, type UnitOfWork } from '../db/unit-of-work.js';

/** The limits on anonymous calls (modules/call-limits), as the route binding applies them. */
export interface CallLimiter {
  /** Counts a call of `name` from `address`; refuses it (429) past a limit. */
  take(name: string, address: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * What the contract's routes run their calls in, given by the composition root (app.ts): the
     * unit of work that opens a recorded call's unit (the audit trail follows it), and the
     * limits on anonymous calls. Routes registered without it (a test's own app) run as they are.
     */
    routeCalls?: { units: UnitOfWork; limits?: CallLimiter };
  }
}

/** A recorded call of a contract route, as its unit of work keeps it (for the audit trail). */
export interface RouteCall {
  definition: RouteDefinition;
  audit: RouteAudit;
  request: FastifyRequest;
  /** The call's statements run in one transaction; false: each commits as it runs. */
  transaction: boolean;
  /** The service writes the call's event in the statement of its change (`RouteDocs.eventInStatement`). */
  eventInStatement: boolean;
}

export const routeCallKey = new UnitKey<RouteCall>('the route call');

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
  /**
   * The service writes the call's audit event in the very statement of its change
   * (`takeCallEvent`), so the call holds no transaction open: a hot call (a participant's
   * answer, saved many times a second in one prepared statement) that would otherwise take a
   * transaction and three more round trips.
   */
  eventInStatement?: true;
}

/**
 * Which calls are limited: every anonymous call that writes (a sign-in, a second factor's step,
 * a sign-in link or password code asked for, an unlock), and an anonymous read that looks up
 * what the caller gives (`limited`: a certificate's code). A call that needs a session or a
 * cookie answers to its holder, and is not limited.
 */
function isLimitedCall(definition: RouteDefinition, docs: RouteDocs): boolean {
  return definition.access === 'public' && (definition.method !== 'GET' || docs.limited === true);
}

/**
 * How a recorded call's unit of work runs: a change in one transaction, with its event; a
 * sign-in's or an account's step, and any anonymous call, statement by statement (what it
 * counts must stand whatever its outcome; an anonymous call's limit is counted in the unit); a
 * call whose service writes its event in its change's statement, and a download, likewise.
 * Null: the trail records nothing of it, and it runs in no unit.
 */
function unitOf(definition: RouteDefinition, docs: RouteDocs): { audit: RouteAudit; transaction: boolean } | null {
  const audit = definition.audit;
  if (!audit || audit.kind === 'none') return null;
  return { audit, transaction: audit.kind === 'change' && definition.access !== 'public' && !docs.eventInStatement };
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
 * calls; the route file adds the documentation and the handler. A call its declaration says
 * the audit trail records (`audit`) runs in a unit of work (db/unit-of-work.ts), which the
 * trail follows: a change runs whole in one transaction with its event.
 */
export function contractRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  return function implement<D extends RouteDefinition>(definition: D, docs: RouteDocs, handler: Handler<D>): void {
    const status = definition.status ?? 200;
    const units = app.routeCalls?.units;
    const unit = units ? unitOf(definition, docs) : null;
    const limits = isLimitedCall(definition, docs) ? app.routeCalls?.limits : undefined;
    // The count is its own statement on the database: inside a change's transaction it would
    // roll back with a refusal (and wait on itself on the embedded database's one connection).
    if (limits && unit?.transaction) {
      throw new Error(`${definition.method} ${definition.path}: a limited call must not run in a change's transaction`);
    }
    /** Calls whose transaction is open. */
    const open = new WeakSet<FastifyRequest>();
    typed.route({
      method: definition.method,
      url: definition.path,
      config: {
        access: definition.access,
        redirects: status === 302,
      },
      // A change's answer goes out once its transaction has committed, even one its handler sent
      // itself: that is refused aloud (waiting for the commit would wait for ever, the handler
      // waiting in turn for its answer to be sent), so a handler returns its answer and it is
      // sent below, after the commit. (A change written in one statement holds no transaction.)
      ...(unit?.transaction
        ? {
            onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
              if (open.has(request) && reply.statusCode < 400) {
                throw new Error(
                  `${request.method} ${request.url}: answered before its change committed (return the answer)`,
                );
              }
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
          if (limits)
            await limits.take(definition.audit?.name ?? `${definition.method} ${definition.path}`, request.ip);
          return handler(request as unknown as ContractRequest<D>, reply);
        };
        const result = unit && units ? await inUnit(units, unit, request, run) : await run();
        if (result === reply || reply.sent) return reply;
        reply.status(status);
        return status === 204 ? reply.send(null) : result;
      },
    });

    async function inUnit<T>(
      units: UnitOfWork,
      { audit, transaction }: { audit: RouteAudit; transaction: boolean },
      request: FastifyRequest,
      run: () => Promise<T>,
    ): Promise<T> {
      const call: RouteCall = {
        definition,
        audit,
        request,
        transaction,
        eventInStatement: docs.eventInStatement === true,
      };
      if (transaction) open.add(request);
      try {
        return await units.run(run, {
          transaction,
          keep: (opened) => opened.set(routeCallKey, call),
          log: request.log,
        });
      } finally {
        open.delete(request);
      }
    }
  };
}
