import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_COOKIE, isErrorCode } from '@pss/contract';
import { hostileString } from '../../../../test/fuzz/arbitraries.js';
import { expectError } from '../../../../test/kit.js';
import { startTestIdp, type TestIdp } from '../../../../test/oidc-idp.mjs';
import {
  createClient,
  createTestContext,
  createUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/test-app.js';
import type { UserRow } from '../../users/users.service.js';
import { redactUrl } from '../../../app.js';
import { OIDC_ID_TOKEN_COOKIE, STAFF_REFRESH_COOKIE } from '../auth.routes.js';
import { OIDC_TRANSACTION_COOKIE } from './oidc.routes.js';
import { createSecondFactorRepository } from '../second-factor/second-factor.repository.js';
import { appSetUp } from '../../../../test/second-factor-kit.js';
import { softwarePasskey } from '../../../../test/software-passkey.js';

// Client administrators sign in through a real OpenID provider (oidc-provider, in this
// process on 127.0.0.1): the app's start and callback calls, the provider's authorization,
// token, userinfo and end-session endpoints, with PKCE, state and nonce checked for real.

const PUBLIC_URL = 'http://app.example.test';
const CLIENT = { clientId: 'pss-test', clientSecret: 'pss-test-secret-at-the-provider' };
const admin = { email: 'ada.admin@hospital.test' };
const unverified = 'una.unverified@hospital.test';
const stranger = 'sam.stranger@hospital.test';
const provider = 'pat.provider-staff@hospital.test';

let idp: TestIdp;
let ctx: TestContext;
let adminRow: UserRow;
const lines: string[] = [];

function envFor(issuer: string, extra: Record<string, string> = {}) {
  return {
    PUBLIC_URL,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    LOG_LEVEL: 'info',
    ...extra,
  };
}

beforeAll(async () => {
  idp = await startTestIdp({
    accounts: {
      [admin.email]: { email_verified: true, given_name: 'Ada' },
      [unverified]: { email_verified: false },
      [stranger]: { email_verified: true },
      [provider]: { email_verified: true },
    },
    client: {
      ...CLIENT,
      redirectUris: [`${PUBLIC_URL}/keycloak-landing`],
      postLogoutRedirectUris: [`${PUBLIC_URL}/logged-out`],
    },
  });
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  ctx = await createTestContext({ env: envFor(idp.issuer), logger: { stream } });
  const client = await createClient(ctx.db);
  adminRow = await createUser(ctx.db, { role: 'ADMIN', clientId: client.id, email: admin.email });
  await createUser(ctx.db, { role: 'ADMIN', clientId: client.id, email: unverified });
  await createUser(ctx.db, { role: 'SUPERADMIN', email: provider });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await idp?.close();
});

/** The browser's side at the provider: follows its redirects, keeping its cookies, until it sends the browser back to the app. */
async function throughProvider(start: URL): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 15; hop++) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`the provider stopped at ${url.href} (${response.status}): ${await response.text()}`);
    url = new URL(location, url);
    if (url.href.startsWith(PUBLIC_URL)) return url;
  }
  throw new Error('too many redirects at the provider');
}

interface Started {
  transaction: string;
  authorizationUrl: URL;
}

async function start(app = ctx.app): Promise<Started> {
  const response = await app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
  expect(response.statusCode).toBe(302);
  const cookie = response.cookies.find((c) => c.name === OIDC_TRANSACTION_COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, path: '/api/auth/oidc', maxAge: 600 });
  return { transaction: cookie!.value, authorizationUrl: new URL(response.headers.location as string) };
}

function callback(query: string, transaction: string | undefined, app = ctx.app) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/oidc/callback',
    cookies: transaction ? { [OIDC_TRANSACTION_COOKIE]: transaction } : {},
    payload: { query },
  });
}

/** Signs in at the provider as `email` and hands its answer to the app, as /keycloak-landing does. */
async function signIn(email: string, app = ctx.app) {
  idp.loginAs(email);
  const started = await start(app);
  const landing = await throughProvider(started.authorizationUrl);
  expect(landing.pathname).toBe('/keycloak-landing');
  return callback(landing.search, started.transaction, app);
}

describe('signing in through the identity provider', () => {
  it('starts with PKCE, state and nonce, and tells the web app it is on', async () => {
    const { authorizationUrl } = await start();
    expect(authorizationUrl.origin).toBe(idp.issuer);
    const params = authorizationUrl.searchParams;
    expect(params.get('client_id')).toBe(CLIENT.clientId);
    expect(params.get('redirect_uri')).toBe(`${PUBLIC_URL}/keycloak-landing`);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
    const settings = await ctx.app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.json()).toMatchObject({ oidc_enabled: true, admin_password_login: true });
  });

  it('signs a client administrator in with the verified email: a staff session like a password sign-in', async () => {
    const response = await signIn(admin.email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      expires_in: 900,
      user: { id: adminRow.id, email: admin.email, role: 'admin', client_id: adminRow.clientId },
    });
    const cookies = Object.fromEntries(response.cookies.map((c) => [c.name, c]));
    expect(cookies[STAFF_REFRESH_COOKIE]).toMatchObject({ httpOnly: true, path: '/api/auth' });
    expect(cookies[PRESENCE_COOKIE]?.value).toBe('1');
    expect(cookies[OIDC_ID_TOKEN_COOKIE]).toMatchObject({ httpOnly: true, path: '/api/auth/oidc' });
    // The transaction works once.
    expect(cookies[OIDC_TRANSACTION_COOKIE]?.value).toBe('');

    const verify = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/verify',
      headers: { authorization: `Bearer ${response.json().access_token}` },
    });
    expect(verify.json().user.id).toBe(adminRow.id);
    const refresh = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: cookies[STAFF_REFRESH_COOKIE]!.value },
    });
    expect(refresh.statusCode).toBe(200);
  });

  it('does not ask a member with a second factor for it again: the provider’s own factors stand', async () => {
    await appSetUp(ctx.db, adminRow.id, ctx.clock.now());
    const response = await signIn(admin.email);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ access_token: expect.any(String), user: { id: adminRow.id } });
    await createSecondFactorRepository(ctx.db).resetFactors(adminRow.id);
  });

  it('refuses an answer whose state is not the one it started with', async () => {
    idp.loginAs(admin.email);
    const started = await start();
    const landing = await throughProvider(started.authorizationUrl);
    const wrong = new URLSearchParams(landing.search);
    wrong.set('state', `${wrong.get('state')}x`);
    expectError(await callback(`?${wrong}`, started.transaction), 400, 'OIDC_SIGN_IN_INVALID');
    // The state of another sign-in (its own cookie) is no better.
    const other = await start();
    expectError(await callback(landing.search, other.transaction), 400, 'OIDC_SIGN_IN_INVALID');
  });

  it('refuses an ID token whose nonce is not the one it started with', async () => {
    idp.loginAs(admin.email);
    const started = await start();
    // The provider is asked for another nonce than the transaction holds (a replayed ID token's).
    started.authorizationUrl.searchParams.set('nonce', 'a-nonce-this-sign-in-never-sent');
    const landing = await throughProvider(started.authorizationUrl);
    const before = lines.length;
    expectError(await callback(landing.search, started.transaction), 400, 'OIDC_SIGN_IN_INVALID');
    // The log names the claim that did not match, and not its value.
    const log = lines.slice(before).join('');
    expect(log).toContain('"claim":"nonce"');
    expect(log).not.toContain('a-nonce-this-sign-in-never-sent');
  });

  it('refuses a missing, made-up or replayed transaction', async () => {
    idp.loginAs(admin.email);
    const started = await start();
    const landing = await throughProvider(started.authorizationUrl);
    expectError(await callback(landing.search, undefined), 400, 'OIDC_SIGN_IN_EXPIRED');
    expectError(await callback(landing.search, `${started.transaction}x`), 400, 'OIDC_SIGN_IN_EXPIRED');
    expect((await callback(landing.search, started.transaction)).statusCode).toBe(200);
    // The provider's code works once, even with a copy of the cookie.
    expectError(await callback(landing.search, started.transaction), 400, 'OIDC_SIGN_IN_INVALID');
  });

  it('sends an email nobody here administers, or a provider-staff one, to /unauthorized as unknown', async () => {
    expectError(await signIn(stranger), 403, 'OIDC_ACCOUNT_UNKNOWN');
    expectError(await signIn(provider), 403, 'OIDC_ACCOUNT_UNKNOWN');
  });

  it('refuses an email the provider has not verified, though an administrator has it', async () => {
    expectError(await signIn(unverified), 403, 'OIDC_EMAIL_UNVERIFIED');
  });

  it('keeps the code, the state and the tokens out of the log', async () => {
    idp.loginAs(admin.email);
    const before = lines.length;
    const started = await start();
    const landing = await throughProvider(started.authorizationUrl);
    const signedIn = await callback(landing.search, started.transaction);
    expect(signedIn.statusCode).toBe(200);
    const idToken = signedIn.cookies.find((c) => c.name === OIDC_ID_TOKEN_COOKIE)!.value;
    const log = lines.slice(before).join('');
    expect(log).toContain('/api/auth/oidc/callback');
    for (const secret of [
      landing.searchParams.get('code')!,
      landing.searchParams.get('state')!,
      started.transaction,
      idToken,
      signedIn.json().access_token,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('the request log', () => {
  it('blanks the provider’s answer in /keycloak-landing’s URL and the hint in an end-session URL', () => {
    expect(redactUrl('/keycloak-landing?code=c0de&state=st4te&session_state=s3ss&iss=https%3A%2F%2Fsso')).toBe(
      '/keycloak-landing?code=[redacted]&state=[redacted]&session_state=[redacted]&iss=https%3A%2F%2Fsso',
    );
    expect(redactUrl('/session/end?id_token_hint=eyJ.x.y&post_logout_redirect_uri=z')).toBe(
      '/session/end?id_token_hint=[redacted]&post_logout_redirect_uri=z',
    );
  });
});

describe('hostile answers to the callback', () => {
  it('refuses every made-up provider answer with a catalogue error, never a 5xx', async () => {
    // A live transaction: its real state gets a made-up code as far as the provider's token endpoint.
    const started = await start();
    const state = started.authorizationUrl.searchParams.get('state')!;
    const param = fc.oneof(hostileString, fc.constantFrom(state, 'x', ''));
    const query = fc.oneof(
      hostileString,
      fc
        .record({ code: param, state: param, iss: fc.oneof(param, fc.constant(idp.issuer)), error: fc.option(param) })
        .map(({ error, ...rest }) => {
          const params = new URLSearchParams(rest);
          if (error !== null) params.set('error', error);
          return `?${params}`;
        }),
    );
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const response = await callback(q, started.transaction);
        const body = response.json();
        if (response.statusCode < 400 || response.statusCode >= 500 || !isErrorCode(body.errorCode)) {
          throw new Error(`${JSON.stringify(q)} → ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('signing out of a session from the identity provider', () => {
  async function signedIn(app = ctx.app) {
    const response = await signIn(admin.email, app);
    expect(response.statusCode).toBe(200);
    const cookie = (name: string) => response.cookies.find((c) => c.name === name)!.value;
    return {
      authorization: `Bearer ${response.json().access_token}`,
      cookies: {
        [STAFF_REFRESH_COOKIE]: cookie(STAFF_REFRESH_COOKIE),
        [OIDC_ID_TOKEN_COOKIE]: cookie(OIDC_ID_TOKEN_COOKIE),
      },
    };
  }

  it('ends the session and sends the browser through the provider’s end-session page to /logged-out', async () => {
    const session = await signedIn();
    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/logout',
      headers: { authorization: session.authorization },
      cookies: session.cookies,
    });
    expect(logout.statusCode).toBe(200);
    const endSession = new URL(logout.json().redirect_url);
    expect(endSession.origin).toBe(idp.issuer);
    expect(endSession.searchParams.get('id_token_hint')).toBe(session.cookies[OIDC_ID_TOKEN_COOKIE]);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/logged-out`);
    expect(logout.cookies.find((c) => c.name === OIDC_ID_TOKEN_COOKIE)?.value).toBe('');
    // The app's session is over: the refresh cookie, and the access token at once.
    const refresh = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: session.cookies[STAFF_REFRESH_COOKIE] },
    });
    expect(refresh.statusCode).toBe(401);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: session.authorization },
    });
    expect([me.statusCode, me.json().errorCode]).toEqual([401, 'NOT_AUTHORIZED']);

    // At the provider: its sign-out page, confirmed, comes back to /logged-out.
    const page = await fetch(endSession, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    expect(action && xsrf).toBeTruthy();
    const confirmed = await fetch(new URL(action!, endSession), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: page.headers
          .getSetCookie()
          .map((line) => line.split(';')[0])
          .join('; '),
      },
      body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }).toString(),
    });
    expect({ status: confirmed.status, body: await confirmed.text() }).toMatchObject({ status: 303 });
    expect(confirmed.headers.get('location')).toBe(`${PUBLIC_URL}/logged-out`);
  });

  it('answers no redirect for a password session, which the provider never saw', async () => {
    const password = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/admin',
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    const refresh = password.cookies.find((c) => c.name === STAFF_REFRESH_COOKIE)!.value;
    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/logout',
      headers: { authorization: `Bearer ${password.json().access_token}` },
      cookies: { [STAFF_REFRESH_COOKIE]: refresh },
    });
    expect(logout.json()).toEqual({ redirect_url: null });
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: `Bearer ${password.json().access_token}` },
    });
    expect([me.statusCode, me.json().errorCode]).toEqual([401, 'NOT_AUTHORIZED']);
  });

  it('with NEW_LOGIN_ENABLED, ends on /unauthorized instead of the provider', async () => {
    const other = await createTestContext({
      env: envFor(idp.issuer, { NEW_LOGIN_ENABLED: 'true', LOG_LEVEL: 'silent' }),
    });
    try {
      const client = await createClient(other.db);
      await createUser(other.db, { role: 'ADMIN', clientId: client.id, email: admin.email });
      const session = await signedIn(other.app);
      const logout = await other.app.inject({
        method: 'POST',
        url: '/api/auth/oidc/logout',
        headers: { authorization: session.authorization },
        cookies: session.cookies,
      });
      expect(logout.json()).toEqual({ redirect_url: `${PUBLIC_URL}/unauthorized` });
      const refresh = await other.app.inject({
        method: 'GET',
        url: '/api/auth/admin/refresh',
        cookies: { [STAFF_REFRESH_COOKIE]: session.cookies[STAFF_REFRESH_COOKIE] },
      });
      expect(refresh.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('password sign-in for client administrators', () => {
  it('is refused with PASSWORD_LOGIN_DISABLED when ADMIN_PASSWORD_LOGIN=false; provider staff keep theirs', async () => {
    const off = await createTestContext({
      env: envFor(idp.issuer, { ADMIN_PASSWORD_LOGIN: 'false', LOG_LEVEL: 'silent' }),
    });
    try {
      const client = await createClient(off.db);
      const administrator = await createUser(off.db, { role: 'ADMIN', clientId: client.id });
      const superadmin = await createUser(off.db, { role: 'SUPERADMIN' });
      const login = (url: string, email: string, password = TEST_PASSWORD) =>
        off.app.inject({ method: 'POST', url, payload: { email, password } });
      expectError(await login('/api/auth/login/admin', administrator.email), 403, 'PASSWORD_LOGIN_DISABLED');
      expectError(await login('/api/auth/admin/login', administrator.email), 403, 'PASSWORD_LOGIN_DISABLED');
      // A wrong password is told as wrong, as for anyone: the refusal tells a stranger nothing.
      expectError(
        await login('/api/auth/admin/login', administrator.email, 'not-the-password'),
        401,
        'INCORRECT_PASSWORD',
      );
      expect((await login('/api/auth/admin/login', superadmin.email)).statusCode).toBe(200);
      expect((await login('/api/auth/login/superadmin', superadmin.email)).statusCode).toBe(200);
      // Nor does a passkey alone, which stands in for the password.
      const key = softwarePasskey(off.config.passkeys.rpId, off.config.passkeys.origins[0]!);
      await createSecondFactorRepository(off.db).addPasskey({
        userId: administrator.id,
        credentialId: key.credentialId,
        publicKey: key.publicKey,
        name: 'Laptop',
        createdAt: off.clock.now(),
      });
      const begun = await off.app.inject({ method: 'POST', url: '/api/auth/mfa/webauthn/options', payload: {} });
      const { options, mfa_token } = begun.json<{ options: { challenge: string }; mfa_token: string }>();
      const alone = await off.app.inject({
        method: 'POST',
        url: '/api/auth/mfa/webauthn/verify',
        payload: { mfa_token, response: key.signIn(options) },
      });
      expectError(alone, 403, 'PASSWORD_LOGIN_DISABLED');
      const settings = await off.app.inject({ method: 'GET', url: '/api/settings' });
      expect(settings.json()).toMatchObject({ oidc_enabled: true, admin_password_login: false });
    } finally {
      await off.close();
    }
  });
});

describe('without a provider', () => {
  it('sends the start to /unauthorized with the reason, and refuses the callback', async () => {
    const plain = await createTestContext();
    try {
      const started = await plain.app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
      expect(started.statusCode).toBe(302);
      expect(started.headers.location).toBe('/unauthorized?reason=OIDC_NOT_CONFIGURED');
      expectError(await callback('?code=x&state=y', 'z', plain.app), 404, 'OIDC_NOT_CONFIGURED');
      const settings = await plain.app.inject({ method: 'GET', url: '/api/settings' });
      expect(settings.json()).toMatchObject({ oidc_enabled: false, admin_password_login: true });
    } finally {
      await plain.close();
    }
  });

  it('sends the start to /unauthorized when the provider cannot be reached', async () => {
    const down = await createTestContext({ env: envFor('http://127.0.0.1:9', { LOG_LEVEL: 'silent' }) });
    try {
      const started = await down.app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
      expect(started.headers.location).toBe('/unauthorized?reason=OIDC_PROVIDER_UNAVAILABLE');
    } finally {
      await down.close();
    }
  });
});
