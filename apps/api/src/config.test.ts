import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-config-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.enableSuperfakeLogin).toBe(false);
    // Without SESSION_SECRET one is made and kept, so a restart keeps sessions.
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, '.session-secret'), 'utf8')).toBe(config.sessionSecret);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SESSION_SECRET: 'short' })).toThrow(
      /PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/,
    );
    try {
      loadConfig({ PORT: 'eighty', SESSION_SECRET: 'short' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect(String(error)).toContain('SESSION_SECRET');
    }
  });

  it('wants the superadmin email and password together', () => {
    expect(() => loadConfig({ SUPERADMIN_EMAIL: 'a@b.test', SESSION_SECRET: 'x'.repeat(40) })).toThrow(/together/);
    expect(() =>
      loadConfig({ SUPERADMIN_EMAIL: 'a@b.test', SUPERADMIN_PASSWORD: '12345', SESSION_SECRET: 'x'.repeat(40) }),
    ).toThrow(/SUPERADMIN_PASSWORD/);
  });

  it('wants the token refresh to come before the access token expires', () => {
    expect(() =>
      loadConfig({
        ACCESS_TOKEN_TTL_SECONDS: '300',
        TOKEN_REFRESH_INTERVAL_SECONDS: '600',
        SESSION_SECRET: 'x'.repeat(40),
      }),
    ).toThrow(/TOKEN_REFRESH_INTERVAL_SECONDS/);
  });

  it('trusts no proxy unless TRUST_PROXY says which', () => {
    const base = { SESSION_SECRET: 'x'.repeat(40) };
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  describe('sign-in through an identity provider (OpenID Connect)', () => {
    const base = { SESSION_SECRET: 'x'.repeat(40) };
    const provider = { ...base, OIDC_ISSUER: 'https://sso.example.org/realms/pss', OIDC_CLIENT_ID: 'pss' };

    it('is off until OIDC_ISSUER and OIDC_CLIENT_ID are set, and then asks for openid email profile', () => {
      const off = loadConfig(base);
      expect(off.oidc).toBeUndefined();
      expect(off.adminPasswordLogin).toBe(true);
      expect(off.newLoginEnabled).toBe(false);
      expect(loadConfig(provider).oidc).toEqual({
        issuer: 'https://sso.example.org/realms/pss',
        clientId: 'pss',
        clientSecret: undefined,
        scopes: 'openid email profile',
      });
      expect(loadConfig({ ...provider, OIDC_CLIENT_SECRET: 's3cret', OIDC_SCOPES: ' openid  email ' }).oidc).toEqual(
        expect.objectContaining({ clientSecret: 's3cret', scopes: 'openid email' }),
      );
    });

    it('wants the issuer and the client id together, a URL, and the scopes that carry the email', () => {
      expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://sso.example.org' })).toThrow(/together/);
      expect(() => loadConfig({ ...base, OIDC_CLIENT_ID: 'pss' })).toThrow(/together/);
      expect(() => loadConfig({ ...provider, OIDC_ISSUER: 'sso.example.org' })).toThrow(/OIDC_ISSUER/);
      expect(() => loadConfig({ ...provider, OIDC_SCOPES: 'openid profile' })).toThrow(
        /OIDC_SCOPES must include email/,
      );
      expect(() => loadConfig({ ...provider, OIDC_SCOPES: 'email' })).toThrow(/OIDC_SCOPES must include openid/);
    });

    it('turns password sign-in for administrators off only when a provider lets them in', () => {
      expect(loadConfig({ ...provider, ADMIN_PASSWORD_LOGIN: 'false' }).adminPasswordLogin).toBe(false);
      expect(loadConfig({ ...provider, ADMIN_PASSWORD_LOGIN: 'true' }).adminPasswordLogin).toBe(true);
      expect(() => loadConfig({ ...base, ADMIN_PASSWORD_LOGIN: 'false' })).toThrow(/ADMIN_PASSWORD_LOGIN=false/);
      expect(loadConfig({ ...provider, NEW_LOGIN_ENABLED: 'true' }).newLoginEnabled).toBe(true);
    });

    it('wants https in production, except for a provider on this machine', () => {
      const production = { ...provider, NODE_ENV: 'production', PUBLIC_URL: 'https://pss.example.org' };
      expect(loadConfig(production).oidc?.issuer).toBe('https://sso.example.org/realms/pss');
      expect(() => loadConfig({ ...production, OIDC_ISSUER: 'http://sso.example.org' })).toThrow(
        /OIDC_ISSUER must be https/,
      );
      expect(loadConfig({ ...production, OIDC_ISSUER: 'http://127.0.0.1:4000' }).oidc?.issuer).toBe(
        'http://127.0.0.1:4000',
      );
      // Development takes a plain-http provider (a Keycloak in docker).
      expect(loadConfig({ ...provider, OIDC_ISSUER: 'http://sso.example.org' }).oidc?.issuer).toBe(
        'http://sso.example.org',
      );
    });
  });

  describe('in production', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://pss.example.org',
    };

    it('refuses to start with ENABLE_SUPERFAKE_LOGIN', () => {
      expect(() => loadConfig({ ...production, ENABLE_SUPERFAKE_LOGIN: 'true' })).toThrow(
        /ENABLE_SUPERFAKE_LOGIN cannot be set when NODE_ENV=production/,
      );
      expect(loadConfig({ ...production, ENABLE_SUPERFAKE_LOGIN: 'false' }).enableSuperfakeLogin).toBe(false);
      // Development keeps it.
      expect(
        loadConfig({ ...production, NODE_ENV: 'development', ENABLE_SUPERFAKE_LOGIN: 'true' }).enableSuperfakeLogin,
      ).toBe(true);
    });

    it('requires PUBLIC_URL, whose https makes the cookies Secure', () => {
      expect(() => loadConfig({ ...production, PUBLIC_URL: undefined })).toThrow(
        /PUBLIC_URL is required when NODE_ENV=production/,
      );
      expect(loadConfig(production).secureCookies).toBe(true);
      expect(loadConfig({ ...production, PUBLIC_URL: 'http://intranet.example.org' }).secureCookies).toBe(false);
      expect(loadConfig({ SESSION_SECRET: 'x'.repeat(40) }).secureCookies).toBe(false);
    });
  });
});
