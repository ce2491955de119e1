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
});
