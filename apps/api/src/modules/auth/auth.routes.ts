import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PRESENCE_COOKIE, loginBody, loginResponse, verifyResponse } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { AuthService, IssuedSession, StaffLoginKind } from './auth.service.js';
import type { UsersService } from '../users/users.service.js';

/** The httpOnly cookie holding the staff refresh token; sent only to the auth calls. */
export const STAFF_REFRESH_COOKIE = 'pss_admin_refresh';
const REFRESH_COOKIE_PATH = '/api/auth';

export interface AuthRouteOptions {
  secureCookies: boolean;
  enableSuperfakeLogin: boolean;
}

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; users: UsersService },
  options: AuthRouteOptions,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  function setSessionCookies(reply: FastifyReply, session: IssuedSession): void {
    const maxAge = Math.max(1, Math.floor((session.refreshExpiresAt.getTime() - Date.now()) / 1000));
    reply.setCookie(STAFF_REFRESH_COOKIE, session.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: options.secureCookies,
      path: REFRESH_COOKIE_PATH,
      maxAge,
    });
    // Readable by the web app: its presence tells every tab that a session exists.
    reply.setCookie(PRESENCE_COOKIE, '1', {
      httpOnly: false,
      sameSite: 'strict',
      secure: options.secureCookies,
      path: '/',
      maxAge,
    });
  }

  function clearSessionCookies(reply: FastifyReply): void {
    reply.clearCookie(STAFF_REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
    reply.clearCookie(PRESENCE_COOKIE, { path: '/' });
  }

  const loginCalls: { url: string; kind: StaffLoginKind; summary: string }[] = [
    { url: '/auth/login/superadmin', kind: 'superadmin', summary: 'Sign in as provider staff (superadmin)' },
    { url: '/auth/login/admin', kind: 'admin', summary: 'Sign in as a client administrator' },
    { url: '/auth/admin/login', kind: 'staff', summary: 'Sign in as any staff member (superadmin or admin)' },
  ];
  for (const call of loginCalls) {
    r.post(
      call.url,
      {
        config: { access: 'public' },
        schema: {
          tags: ['Auth'],
          summary: call.summary,
          description:
            'Answers an access token for `Authorization: Bearer`, sets the httpOnly refresh cookie and the ' +
            'JS-readable presence cookie. A wrong password, an unknown email and an account of another kind ' +
            'all answer 401 INCORRECT_PASSWORD; repeated failures answer 429 TOO_MANY_REQUESTS.',
          body: loginBody,
          response: { 200: loginResponse },
        },
      },
      async (request, reply) => {
        const session = await deps.auth.login(call.kind, request.body.email, request.body.password, request.ip);
        setSessionCookies(reply, session);
        return session.body;
      },
    );
  }

  if (options.enableSuperfakeLogin) {
    r.post(
      '/auth/login/superfake',
      {
        config: { access: 'public' },
        schema: {
          tags: ['Auth'],
          summary: 'Development only: sign in as the first superadmin without a password',
          description: 'Exists only when ENABLE_SUPERFAKE_LOGIN is set; otherwise 404.',
          response: { 200: loginResponse },
        },
      },
      async (_request, reply) => {
        const session = await deps.auth.loginSuperfake();
        setSessionCookies(reply, session);
        return session.body;
      },
    );
  }

  r.get(
    '/auth/admin/refresh',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Auth'],
        summary: 'Trade the refresh cookie for a new access token (the cookie rotates)',
        description:
          'Public because it is how a client without a valid access token gets one; 401 without a live refresh cookie.',
        response: { 200: loginResponse },
      },
    },
    async (request, reply) => {
      try {
        const session = await deps.auth.refresh(request.cookies[STAFF_REFRESH_COOKIE]);
        setSessionCookies(reply, session);
        return session.body;
      } catch (error) {
        clearSessionCookies(reply);
        throw error;
      }
    },
  );

  r.get(
    '/auth/admin/verify',
    {
      config: { access: 'admin' },
      schema: { tags: ['Auth'], summary: 'Check the access token', response: { 200: verifyResponse } },
    },
    async (request) => ({ valid: true as const, user: await deps.users.getCurrentStaffUser(caller(request).userId) }),
  );

  r.delete(
    '/auth/admin/logout',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Auth'],
        summary: 'Sign out: revoke the refresh token on the server and clear the cookies',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deps.auth.logout(request.cookies[STAFF_REFRESH_COOKIE]);
      clearSessionCookies(reply);
      return reply.status(204).send(null);
    },
  );
}
