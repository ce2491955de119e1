import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isParticipantRole, isStaffUserRole, routeAccessLevels, type RouteAccess, type UserRole } from '@pss/contract';
import { AppError } from './errors.js';
import type { AccessClaims, TokenService } from './tokens.js';
import type { Clock } from './clock.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Required on every route. */
    access?: RouteAccess;
    /** The route answers a redirect (a browser navigation), documented as a 302. */
    redirects?: boolean;
  }
  interface FastifyRequest {
    /** The caller, on every route that is not public. */
    auth: AccessClaims | null;
    /** The caller's account as the session check read it (with the same read). */
    bearer: LiveBearer | null;
    /** On an `enrolment` route called half signed in: the sign-in the enrolment completes. */
    enrolment: { challengeId: string } | null;
  }
}

export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  /** The route's zod schemas (params, querystring, body): what the fuzz tests build requests from. */
  schema: { params?: unknown; querystring?: unknown; body?: unknown } | undefined;
}

/** Whether a signed-in role may call a route of this access level. */
export function roleMayCall(role: UserRole, access: Exclude<RouteAccess, 'public'>): boolean {
  switch (access) {
    case 'superadmin':
      return role === 'SUPERADMIN';
    case 'admin':
    case 'enrolment':
      return isStaffUserRole(role);
    case 'participant':
      return isParticipantRole(role);
    case 'user':
      return true;
  }
}

/** The account behind a token while its session lasts: what `users/me` answers, read by the session check. */
export interface LiveBearer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  clientId: string | null;
}

/** Reads whether a token's session is live and its user there (modules/auth/live-sessions.ts). */
export interface LiveSessions {
  /** The bearer as the database has them, or null when the session or the user is gone. */
  check(userId: string, sessionId: string | null | undefined, now: Date): Promise<LiveBearer | null>;
}

/** Reads the half-signed-in state of a staff member who must set up a second factor (modules/auth/second-factor). */
export interface HalfSignedIn {
  /** The member and their sign-in, or null when the token names no live enrolment step. */
  check(token: string, now: Date): Promise<{ account: LiveBearer; challengeId: string } | null>;
}

interface BearerDeps {
  tokens: TokenService;
  clock: Clock;
  /** Whether a token's session and user are still there (one read per request). */
  sessions: LiveSessions;
  halfSignedIn: HalfSignedIn;
}

/**
 * Makes every route declare `config.access`, keeps the list for tests and the docs, and
 * checks the bearer token before any handler runs: its signature, then its session and
 * user in the database. A route without a declaration stops the server from starting, so
 * nothing is left open by accident.
 */
export function registerAccessControl(app: FastifyInstance, deps: BearerDeps): DeclaredRoute[] {
  const declared: DeclaredRoute[] = [];
  app.decorateRequest('auth', null);
  app.decorateRequest('bearer', null);
  app.decorateRequest('enrolment', null);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      // Read lazily: plugins such as the docs set their routes' access in their own hook.
      declared.push({
        method,
        url: route.url,
        schema: route.schema as DeclaredRoute['schema'],
        get access() {
          return route.config?.access;
        },
      });
    }
  });

  app.addHook('onReady', async () => {
    const undeclared = declared.filter((r) => !r.access || !routeAccessLevels.includes(r.access));
    if (undeclared.length) {
      throw new Error(
        `Routes without an access declaration: ${undeclared.map((r) => `${r.method} ${r.url}`).join(', ')}`,
      );
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    const bearer = await readBearer(request, deps);
    // Half signed in, a member who must set up a second factor may call the enrolment routes alone.
    if (!bearer && access === 'enrolment') {
      const half = await readHalfSignedIn(request, deps);
      if (!half) throw new AppError('NOT_AUTHORIZED');
      request.bearer = half.account;
      request.enrolment = { challengeId: half.challengeId };
      return;
    }
    if (!bearer) throw new AppError('NOT_AUTHORIZED');
    if (!roleMayCall(bearer.account.role, access)) throw new AppError('FORBIDDEN');
    request.auth = bearer.claims;
    request.bearer = bearer.account;
  });

  return declared;
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return (header && /^Bearer\s+(\S+)$/i.exec(header)?.[1]) || null;
}

async function readHalfSignedIn(request: FastifyRequest, deps: BearerDeps) {
  const token = bearerToken(request);
  return token ? deps.halfSignedIn.check(token, deps.clock.now()) : null;
}

async function readBearer(
  request: FastifyRequest,
  deps: BearerDeps,
): Promise<{ claims: AccessClaims; account: LiveBearer } | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const now = deps.clock.now();
  const claims = await deps.tokens.verifyAccessToken(token, now);
  if (!claims) return null;
  // A signed token is not enough: signed out, its password changed, its account gone, it is refused at once.
  const account = await deps.sessions.check(claims.userId, claims.sessionId, now);
  if (!account) return null;
  // The role and client the database has now, not the ones the token was signed with.
  return { claims: { ...claims, role: account.role, clientId: account.clientId }, account };
}

/** The caller's account on a non-public route, as the access hook read it. */
export function signedInUser(request: FastifyRequest): LiveBearer {
  if (!request.bearer) throw new AppError('NOT_AUTHORIZED');
  return request.bearer;
}

/** The caller of a non-public route; the access hook guarantees it is there. */
export function caller(request: FastifyRequest): AccessClaims {
  if (!request.auth) throw new AppError('NOT_AUTHORIZED');
  return request.auth;
}

/**
 * Who calls an `enrolment` route: a signed-in staff member, or one half signed in (with the
 * sign-in their enrolment completes).
 */
export function enrollingMember(request: FastifyRequest): { userId: string; challengeId: string | null } {
  if (request.auth) return { userId: request.auth.userId, challengeId: null };
  if (request.bearer && request.enrolment)
    return { userId: request.bearer.id, challengeId: request.enrolment.challengeId };
  throw new AppError('NOT_AUTHORIZED');
}

/**
 * The one rule of client isolation: a superadmin sees every client (null: no limit), a
 * client administrator only their own. Everything of another client is "not found".
 */
export function visibleClientId(caller: AccessClaims): string | null {
  if (caller.role === 'SUPERADMIN') return null;
  if (caller.role !== 'ADMIN' || !caller.clientId) throw new AppError('FORBIDDEN');
  return caller.clientId;
}
