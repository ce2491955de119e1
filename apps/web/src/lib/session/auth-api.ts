import {
  API_PREFIX,
  type ClientSettings,
  type CurrentUser,
  type LoginResponse,
  type ParticipantLoginResponse,
  type StaffLogoutResponse,
  type StaffSignInResponse,
  authRoutes,
  serviceRoutes,
  userRoutes,
} from '@pss/contract';
import { call } from '../api-client';
import { sharedRefresh } from './shared-refresh';

export type StaffSignInFlow = 'provider-employee' | 'client-administrator';

const loginRoutes = {
  'provider-employee': authRoutes.loginSuperadmin,
  'client-administrator': authRoutes.loginAdmin,
} as const satisfies Record<StaffSignInFlow, unknown>;

/** A password sign-in: signed in, or asked for a second factor, or taken to set one up. */
export function signIn(flow: StaffSignInFlow, email: string, password: string): Promise<StaffSignInResponse> {
  return call(loginRoutes[flow], { body: { email, password } }, { isLogin: true });
}

/** How a refresh is sent: `waitForOtherTabs` as sharedRefresh (./shared-refresh.ts) has it. */
interface RefreshOptions {
  isLogin?: boolean;
  waitForOtherTabs?: boolean;
}

/** Trades the refresh cookie for a new access token; the cookie rotates (one refresh at a time, across tabs). */
export function refreshSession({ waitForOtherTabs }: RefreshOptions = {}): Promise<LoginResponse> {
  return sharedRefresh('staff', () => call(authRoutes.refreshStaff, {}, { isLogin: true }), { waitForOtherTabs });
}

/** The participant's refresh: the same, with the participant's own cookie. */
export function refreshParticipant({
  isLogin,
  waitForOtherTabs,
}: RefreshOptions = {}): Promise<ParticipantLoginResponse> {
  return sharedRefresh('participant', () => call(authRoutes.refreshParticipant, {}, { isLogin }), { waitForOtherTabs });
}

export function signOutOnServer(): Promise<void> {
  return call(authRoutes.logoutStaff, {}, { isLogin: true });
}

/**
 * Where a sign-in through the organisation's identity provider starts: a page the browser
 * navigates to (the API redirects it to the provider), not a call.
 */
export const PROVIDER_SIGN_IN_URL = `${API_PREFIX}${authRoutes.oidcStart.path}`;

/** Hands the provider's answer (the query `/keycloak-landing` was opened with) to the API. */
export function finishProviderSignIn(query: string): Promise<LoginResponse> {
  return call(authRoutes.oidcCallback, { body: { query } }, { isLogin: true });
}

/** Signs out and answers where to go next: the provider's end-session page for its sessions. */
export function signOutWithRedirect(): Promise<StaffLogoutResponse> {
  return call(authRoutes.oidcLogout, {}, { isLogin: true });
}

export function fetchCurrentUser(): Promise<CurrentUser> {
  return call(userRoutes.me);
}

export function fetchClientSettings(): Promise<ClientSettings> {
  return call(serviceRoutes.settings);
}

/** Where a staff member starts: superadmins on Project Management, admins on their client. */
export function landingPathFor(user: Pick<CurrentUser, 'role' | 'client_id'>): string {
  return user.role === 'superadmin' ? '/project-management' : `/project-management/clients/${user.client_id}`;
}
