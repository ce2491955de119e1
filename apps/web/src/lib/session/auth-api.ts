import type { ClientSettings, CurrentUser, LoginResponse } from '@pss/contract';
import { apiRequest } from '../api-client';
import { sharedRefresh } from './shared-refresh';

export type StaffSignInFlow = 'provider-employee' | 'client-administrator';

const loginPaths: Record<StaffSignInFlow, string> = {
  'provider-employee': '/auth/login/superadmin',
  'client-administrator': '/auth/login/admin',
};

export function signIn(flow: StaffSignInFlow, email: string, password: string): Promise<LoginResponse> {
  return apiRequest<LoginResponse>(loginPaths[flow], { method: 'POST', body: { email, password }, isLogin: true });
}

/** Trades the refresh cookie for a new access token; the cookie rotates (one refresh at a time, across tabs). */
export function refreshSession(): Promise<LoginResponse> {
  return sharedRefresh('staff', () => apiRequest<LoginResponse>('/auth/admin/refresh', { isLogin: true }));
}

export function signOutOnServer(): Promise<void> {
  return apiRequest<void>('/auth/admin/logout', { method: 'DELETE', isLogin: true });
}

export function fetchCurrentUser(): Promise<CurrentUser> {
  return apiRequest<CurrentUser>('/users/me');
}

export function fetchClientSettings(): Promise<ClientSettings> {
  return apiRequest<ClientSettings>('/settings');
}

/** Where a staff member starts: superadmins on Project Management, admins on their client. */
export function landingPathFor(user: Pick<CurrentUser, 'role' | 'client_id'>): string {
  return user.role === 'superadmin' ? '/project-management' : `/project-management/clients/${user.client_id}`;
}
