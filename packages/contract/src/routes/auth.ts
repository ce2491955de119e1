import { z } from 'zod';
import {
  loginBody,
  loginResponse,
  oidcCallbackBody,
  staffLogoutResponse,
  unlockBody,
  verifyResponse,
} from '../auth.js';
import {
  createPasswordBody,
  linkLoginBody,
  participantLoginResponse,
  participantUser,
  passwordWithCodeBody,
  verifyEmailBody,
} from '../participant-side.js';
import { route } from '../route.js';
import { staffSignInResponse } from '../second-factor.js';

export const authRoutes = {
  loginSuperadmin: route({
    method: 'POST',
    path: '/auth/login/superadmin',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.loginSuperadmin' },
    body: loginBody,
    reply: staffSignInResponse,
  }),
  loginAdmin: route({
    method: 'POST',
    path: '/auth/login/admin',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.loginAdmin' },
    body: loginBody,
    reply: staffSignInResponse,
  }),
  loginStaff: route({
    method: 'POST',
    path: '/auth/admin/login',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.loginStaff' },
    body: loginBody,
    reply: staffSignInResponse,
  }),
  loginSuperfake: route({
    method: 'POST',
    path: '/auth/login/superfake',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.loginSuperfake' },
    reply: loginResponse,
  }),
  refreshStaff: route({ method: 'GET', path: '/auth/admin/refresh', access: 'public', reply: loginResponse }),
  verifyStaff: route({ method: 'GET', path: '/auth/admin/verify', access: 'admin', reply: verifyResponse }),
  logoutStaff: route({
    method: 'DELETE',
    path: '/auth/admin/logout',
    access: 'admin',
    audit: { kind: 'account', name: 'auth.logoutStaff' },
    status: 204,
    reply: z.null(),
  }),
  /**
   * Client administrators through their organisation's identity provider (OpenID Connect,
   * authorization code with PKCE): `oidcStart` is a browser navigation that redirects to
   * the provider; the provider sends the browser to the web app's `/keycloak-landing`,
   * which hands the answer to `oidcCallback`; that signs in as the password calls do.
   */
  oidcStart: route({ method: 'GET', path: '/auth/oidc/start', access: 'public', status: 302 }),
  oidcCallback: route({
    method: 'POST',
    path: '/auth/oidc/callback',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.oidcCallback' },
    body: oidcCallbackBody,
    reply: loginResponse,
  }),
  /** Sign-out that answers where the browser goes next (the provider's end-session page for its sessions). */
  oidcLogout: route({
    method: 'POST',
    path: '/auth/oidc/logout',
    access: 'admin',
    audit: { kind: 'account', name: 'auth.oidcLogout' },
    reply: staffLogoutResponse,
  }),
  loginParticipant: route({
    method: 'POST',
    path: '/auth/login/user',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.loginParticipant' },
    body: loginBody,
    reply: participantLoginResponse,
  }),
  loginByLink: route({
    method: 'POST',
    path: '/auth/login/halfuser',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.loginByLink' },
    body: linkLoginBody,
    reply: participantLoginResponse,
  }),
  refreshParticipant: route({
    method: 'GET',
    path: '/auth/user/refresh',
    access: 'public',
    reply: participantLoginResponse,
  }),
  verifyParticipant: route({
    method: 'GET',
    path: '/auth/user/verify',
    access: 'participant',
    reply: z.object({ valid: z.literal(true), user: participantUser }),
  }),
  logoutParticipant: route({
    method: 'DELETE',
    path: '/auth/user/logout',
    access: 'participant',
    audit: { kind: 'account', name: 'auth.logoutParticipant' },
    status: 204,
    reply: z.null(),
  }),
  changeParticipantPassword: route({
    method: 'POST',
    path: '/auth/password',
    access: 'participant',
    audit: { kind: 'sign-in', name: 'auth.changeParticipantPassword' },
    body: createPasswordBody,
    status: 204,
    reply: z.null(),
  }),
  /** Emails a single-use link to `/create-password?code=` (no session needed). */
  sendPasswordCode: route({
    method: 'POST',
    path: '/auth/password/code',
    access: 'public',
    audit: { kind: 'account', name: 'auth.sendPasswordCode' },
    body: verifyEmailBody,
    status: 202,
    reply: z.object({ sent: z.literal(true) }),
  }),
  setPasswordWithCode: route({
    method: 'POST',
    path: '/auth/password/reset',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.setPasswordWithCode' },
    body: passwordWithCodeBody,
    status: 204,
    reply: z.null(),
  }),
  sendSignInLink: route({
    method: 'POST',
    path: '/auth/verify/email',
    access: 'public',
    audit: { kind: 'account', name: 'auth.sendSignInLink' },
    body: verifyEmailBody,
    status: 202,
    reply: z.object({ sent: z.literal(true) }),
  }),
  /** Unlocks an account locked by failed sign-ins, with the single-use link mailed to its owner. */
  unlock: route({
    method: 'POST',
    path: '/auth/unlock',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.unlock' },
    body: unlockBody,
    status: 204,
    reply: z.null(),
  }),
};
