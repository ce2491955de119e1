import type { z } from 'zod';
import type { RouteAccess } from './access.js';

/**
 * The route table: every call of the API declared once — method, path, the schemas of its
 * path parameters, query and body, the success status and the schema of its answer, and
 * who may call it. The server registers its routes from these declarations
 * (`apps/api/src/lib/contract-routes.ts`) and the web app calls them through one typed
 * client (`apps/web/src/lib/api-client.ts`), so a changed path parameter, body or answer
 * fails type-checking on both sides instead of at run time.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Where the API serves the route table: a route's path is relative to it (the metrics, served at the root, aside). */
export const API_PREFIX = '/api';

/** `'/users/:userId/:projectId/notes'` → `'userId' | 'projectId'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ObjectSchema = z.ZodType<Record<string, unknown>>;

export interface RouteDefinition {
  method: HttpMethod;
  /** Fastify's syntax: `/clients/:id`. Relative to `API_PREFIX`. */
  path: string;
  access: RouteAccess;
  params?: ObjectSchema;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The status of a success (200 unless said). 302: the call is a browser navigation that
   * answers a redirect (its target in `Location`), never JSON.
   */
  status?: 200 | 201 | 202 | 204 | 302;
  /** The answer's schema; none for an answer that is not JSON (a file, a CSV). */
  reply?: z.ZodType;
  /** A multipart upload with one file in the field `file` (the body is read by the handler). */
  upload?: true;
  /** The content type (or types, when the caller chooses) of an answer that is not JSON. */
  produces?: string | readonly string[];
  /**
   * What the audit trail records of a call, and its name there. Every call that is not a GET
   * declares it (a declaration without one does not type-check), as does a download of
   * personal data; a GET without one is a read the trail does not record.
   */
  audit?: RouteAudit;
}

/**
 * What the audit trail records of a call (docs/design/audit-trail.md):
 * - `change`: the call changes state; its event commits with its change, in one transaction
 *   (an anonymous call's is written once it answers, a refusal too: anyone may send one);
 * - `sign-in`: a step of signing in (a password, a code, a second factor, a link): what it
 *   counts against the limits stands whatever its outcome, so its statements commit as they
 *   run and its event is written once it answers; a refusal is recorded too, with who tried;
 * - `account`: a call on a session or a credential of one's own (a sign-out, a second factor
 *   set up or removed, a code or a link asked for): its statements stand whatever its outcome,
 *   as a sign-in's, and its event is written once it answers;
 * - `download`: a file of personal data taken away (a report, an export), recorded as it goes;
 * - `none`: nothing (a call that only works out an answer from what it is sent, a file that
 *   holds no one's data).
 */
export type AuditKind = 'change' | 'sign-in' | 'account' | 'download' | 'none';

export interface RouteAudit {
  kind: AuditKind;
  /**
   * The call's name (`cases.update`): its events' `action`, which the trail keeps for good and
   * the Audit Log reads in words (audit-actions.ts), so it never changes once given; and the
   * key a limited anonymous call is counted under. Unique across the route table.
   */
  name: string;
}

/** The names a route's params schema declares (none when it has no params schema). */
type DeclaredParamNames<D> = D extends { params: z.ZodType<infer Out> } ? keyof Out & string : never;

/** The params schema must declare exactly the path's parameters: otherwise the declaration does not type-check. */
type ParamsMatchPath<D extends RouteDefinition> = [PathParamNames<D['path']>] extends [DeclaredParamNames<D>]
  ? [DeclaredParamNames<D>] extends [PathParamNames<D['path']>]
    ? unknown
    : { params: `declares names the path ${D['path']} does not have` }
  : { params: `must declare ${PathParamNames<D['path']>}` };

/** A call that is not a GET must say what the audit trail records of it. */
type AuditDeclared<D extends RouteDefinition> = D['method'] extends 'GET'
  ? unknown
  : D extends { audit: RouteAudit }
    ? unknown
    : { audit: 'must say what the audit trail records of a call that is not a GET' };

/**
 * Declares one call of the API; its path parameters are checked against its params schema, and
 * a call that is not a GET says what the audit trail records of it.
 */
export function route<const D extends RouteDefinition>(definition: D & ParamsMatchPath<D> & AuditDeclared<D>): D {
  return definition;
}

/** A route's path with its parameters filled in, each encoded: `/resource-files/:token` → `/resource-files/abc`. */
export function fillPath<D extends RouteDefinition>(
  route: D,
  params: Record<PathParamNames<D['path']>, string>,
): string {
  const values: Partial<Record<string, string>> = params;
  return route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a successful call answers, as the web app receives it (nothing for 204 No Content). */
export type ReplyOf<D extends RouteDefinition> = D['status'] extends 204
  ? void
  : D['reply'] extends z.ZodType
    ? z.output<D['reply']>
    : undefined;
/** What the server's handler must return for the answer (the serializer's input). */
export type ReplyInputOf<D extends RouteDefinition> = D['reply'] extends z.ZodType ? z.input<D['reply']> : unknown;

/** The parsed request a handler receives. */
export interface ParsedRequest<D extends RouteDefinition> {
  params: Output<D['params']>;
  query: Output<D['query']>;
  body: Output<D['body']>;
}

/** What a caller sends: path parameters named by the path, the query and the body as the schemas take them. */
export type CallInput<D extends RouteDefinition> = ([PathParamNames<D['path']>] extends [never]
  ? { params?: undefined }
  : { params: Record<PathParamNames<D['path']>, string | undefined> }) &
  (D['query'] extends z.ZodType ? { query?: Input<D['query']> } : { query?: undefined }) &
  (D['body'] extends z.ZodType ? { body: Input<D['body']> } : { body?: undefined }) &
  (D['upload'] extends true ? { file: UploadFile } : { file?: undefined });

/** A file to upload (the browser's File), described without the DOM's types. */
export interface UploadFile {
  readonly size: number;
  readonly type: string;
}
