import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_INACTIVITY_TIMEOUT_MINUTES,
  DEFAULT_TOKEN_REFRESH_INTERVAL_SECONDS,
  MAX_TEST_RECIPIENTS,
} from '@pss/contract';
import { isTimeZone } from './lib/clock.js';
import { auditConfig, auditEnv, type AuditConfig } from './config-audit.js';
import { storageConfig, storageEnv, type StorageConfig } from './config-storage.js';
import { bounceMailboxConfig, bounceMailboxEnv, type BounceMailboxConfig } from './config-bounce-mailbox.js';
import { callLimitsConfig, callLimitsEnv, type CallLimitsConfig } from './config-call-limits.js';
import { mailAuthConfig, mailAuthEnv, type MailAuthConfig } from './config-mail-auth.js';
import { addressOf, emailEventsConfig, emailEventsEnv, type EmailEventsConfig } from './config-email-events.js';
import { emptyIsAValue, secondFactorConfig, secondFactorEnv, type SecondFactorConfig } from './config-second-factor.js';
import { isLoopbackUrl, oidcConfig, oidcEnv, type OidcConfig } from './config-oidc.js';

/**
 * Every setting the server reads from the environment. The README's configuration
 * table lists the same variables; keep the two in step.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SUPERADMIN_EMAIL: z.email().optional(),
  SUPERADMIN_PASSWORD: z.string().min(6).optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  INACTIVITY_TIMEOUT_MINUTES: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(DEFAULT_INACTIVITY_TIMEOUT_MINUTES),
  TOKEN_REFRESH_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(24 * 3600)
    .default(DEFAULT_TOKEN_REFRESH_INTERVAL_SECONDS),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .max(24 * 3600)
    .default(900),
  REFRESH_TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  // At least one whole test send (its most addresses) fits an hour.
  TEST_EMAILS_PER_PERSON_PER_HOUR: z.coerce.number().int().min(MAX_TEST_RECIPIENTS).max(100_000).default(30),
  TEST_EMAILS_PER_PROJECT_PER_HOUR: z.coerce.number().int().min(MAX_TEST_RECIPIENTS).max(100_000).default(60),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('Patient Simulation Platform <no-reply@localhost>'),
  DASHBOARD_LINK_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  STATISTICS_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  PASSWORD_CODE_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(60),
  RESOURCE_LINK_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  PUBLIC_URL: z.url().optional(),
  SCHEDULER_INTERVAL_SECONDS: z.coerce
    .number()
    .min(0.05)
    .max(24 * 3600)
    .default(60),
  SCHEDULE_TIME_ZONE: z.string().default('UTC').refine(isTimeZone, 'must be an IANA time zone such as America/Chicago'),
  EMAIL_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  IMPORT_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  IMPORT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(120).default(0),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(30),
  SUPPORT_EMAIL: z.email().optional(),
  SUPPORT_PHONE: z.string().max(60).default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ENABLE_SUPERFAKE_LOGIN: booleanFlag,
  ...oidcEnv,
  NEW_LOGIN_ENABLED: booleanFlag,
  // On unless set to false: turning it off leaves client administrators only the provider.
  ADMIN_PASSWORD_LOGIN: z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => v === undefined || v === 'true' || v === '1' || v === 'yes'),
  TRUST_PROXY: z.string().default('false'),
  WEB_DIST_DIR: z.string().optional(),
  ...secondFactorEnv,
  ...auditEnv,
  ...storageEnv,
  ...callLimitsEnv,
  ...bounceMailboxEnv,
  ...mailAuthEnv,
  ...emailEventsEnv,
});

export interface Config
  extends SecondFactorConfig, AuditConfig, StorageConfig, CallLimitsConfig, MailAuthConfig, EmailEventsConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  superadmin: { email: string; password: string } | undefined;
  sessionSecret: string;
  inactivityTimeoutMinutes: number;
  tokenRefreshIntervalSeconds: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlHours: number;
  loginMaxFailures: number;
  loginFailureWindowMinutes: number;
  /**
   * Test emails (which go to any address) a person, and a project, may send within an hour;
   * over either: 429 TEST_EMAIL_LIMIT_REACHED.
   */
  testEmailLimits: { perPersonPerHour: number; perProjectPerHour: number };
  smtpUrl: string | undefined;
  smtpFrom: string;
  bounceMailbox: BounceMailboxConfig['bounceMailbox'];
  /** How long a participant's emailed dashboard link signs them in. */
  linkTtlDays: number;
  /** How long an emailed code to set a password stays usable (it works once). */
  passwordCodeTtlMinutes: number;
  /** How long a project season's statistics are answered again before they are computed anew. */
  statisticsCacheSeconds: number;
  /** How long a signed link to a resource's file (or thumbnail) works. */
  resourceLinkTtlMinutes: number;
  publicUrl: string;
  /** How often the email schedule runs, and the time zone its days are counted in. */
  schedulerIntervalSeconds: number;
  scheduleTimeZone: string;
  /** How long a sender's claim on an email holds: one left by a process that died is taken up after it. */
  emailLeaseSeconds: number;
  /** How long an import's claim holds without renewal: a job left by a dead process is run again after it. */
  importLeaseSeconds: number;
  /** How many claims an import gets: one that keeps killing its process ends in ERROR instead of looping. */
  importMaxAttempts: number;
  /** The bearer token Prometheus sends for /metrics; without one /metrics is not served (404). */
  metricsToken: string | undefined;
  /** After SIGTERM, how long the process keeps serving while /api/health/ready answers 503 (a balancer drains it). */
  shutdownDrainSeconds: number;
  /** After SIGTERM, how long in-flight requests and the current job step get before the process exits anyway. */
  shutdownTimeoutSeconds: number;
  /** The support footer's {email} and {phone}. */
  support: { email: string; phone: string };
  logLevel: string;
  enableSuperfakeLogin: boolean;
  /** Client administrators' identity provider (OpenID Connect); undefined when OIDC_ISSUER is not set. */
  oidc: OidcConfig | undefined;
  /** A provider sign-out ends on /unauthorized instead of the provider's end-session page (spec §4). */
  newLoginEnabled: boolean;
  /** Whether client administrators may still sign in with a password. */
  adminPasswordLogin: boolean;
  /** Whether the session cookies carry `Secure`: PUBLIC_URL is https. */
  secureCookies: boolean;
  /**
   * Fastify's `trustProxy`: which proxies' `X-Forwarded-For` gives the caller's address
   * (the sign-in limits count per address). false: none, the socket's peer is the caller.
   */
  trustProxy: TrustProxy;
  /** Where the built web app is; served at `/` when it exists. */
  webDistDir: string;
}

export type TrustProxy = boolean | number | string[];

export class ConfigError extends Error {}

/** STORAGE_URL read, its mistake said as the other settings' are. */
function storageConfigOrError(e: { STORAGE_URL?: string | undefined }, dataDir: string): StorageConfig {
  try {
    return storageConfig(e, dataDir);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
}

/** `false`/`true`, a hop count, or comma-separated addresses and CIDRs (`10.0.0.0/8,127.0.0.1`). */
function parseTrustProxy(value: string): TrustProxy | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'false' || v === '0' || v === 'no') return false;
  if (v === 'true' || v === 'yes') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim());
  // An address or CIDR: digits, hex, dots, colons and one optional /prefix.
  if (entries.every((e) => /^[0-9a-f.:]+(\/\d{1,3})?$/.test(e) && /[.:]/.test(e))) return entries;
  return undefined;
}

/** Reads and checks the environment. Throws a ConfigError that names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Treat empty strings as unset, as shells and .env files often leave them — but where empty is
  // a value of its own (MFA_REQUIRED_ROLES= : no role must have a second factor).
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => v !== undefined && (v !== '' || emptyIsAValue.has(k))),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.SUPERADMIN_EMAIL) !== Boolean(e.SUPERADMIN_PASSWORD)) {
    throw new ConfigError('Invalid configuration:\n  SUPERADMIN_EMAIL and SUPERADMIN_PASSWORD must be set together');
  }
  if (e.TOKEN_REFRESH_INTERVAL_SECONDS >= e.ACCESS_TOKEN_TTL_SECONDS) {
    throw new ConfigError(
      'Invalid configuration:\n  TOKEN_REFRESH_INTERVAL_SECONDS must be shorter than ACCESS_TOKEN_TTL_SECONDS',
    );
  }
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (trustProxy === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  TRUST_PROXY must be false, true, a hop count or comma-separated addresses/CIDRs',
    );
  }
  const oidc = oidcConfig(e, (message) => new ConfigError(`Invalid configuration:\n  ${message}`));
  if (!e.ADMIN_PASSWORD_LOGIN && !oidc) {
    throw new ConfigError(
      'Invalid configuration:\n  ADMIN_PASSWORD_LOGIN=false needs OIDC_ISSUER: administrators need a way in',
    );
  }
  if (e.NODE_ENV === 'production') {
    // Tokens and the user's identity travel on this connection; plain http only to a provider on this machine.
    if (oidc && oidc.issuer.startsWith('http://') && !isLoopbackUrl(oidc.issuer)) {
      throw new ConfigError('Invalid configuration:\n  OIDC_ISSUER must be https when NODE_ENV=production');
    }
    // A password-less superadmin sign-in must never be one environment variable away in production.
    if (e.ENABLE_SUPERFAKE_LOGIN) {
      throw new ConfigError('Invalid configuration:\n  ENABLE_SUPERFAKE_LOGIN cannot be set when NODE_ENV=production');
    }
    // Without it, emailed links point at localhost and the cookies' Secure flag cannot be decided.
    if (!e.PUBLIC_URL) {
      throw new ConfigError('Invalid configuration:\n  PUBLIC_URL is required when NODE_ENV=production');
    }
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    superadmin:
      e.SUPERADMIN_EMAIL && e.SUPERADMIN_PASSWORD
        ? { email: e.SUPERADMIN_EMAIL.toLowerCase(), password: e.SUPERADMIN_PASSWORD }
        : undefined,
    sessionSecret: e.SESSION_SECRET ?? persistedSessionSecret(dataDir),
    inactivityTimeoutMinutes: e.INACTIVITY_TIMEOUT_MINUTES,
    tokenRefreshIntervalSeconds: e.TOKEN_REFRESH_INTERVAL_SECONDS,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlHours: e.REFRESH_TOKEN_TTL_HOURS,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginFailureWindowMinutes: e.LOGIN_FAILURE_WINDOW_MINUTES,
    testEmailLimits: {
      perPersonPerHour: e.TEST_EMAILS_PER_PERSON_PER_HOUR,
      perProjectPerHour: e.TEST_EMAILS_PER_PROJECT_PER_HOUR,
    },
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    linkTtlDays: e.DASHBOARD_LINK_TTL_DAYS,
    passwordCodeTtlMinutes: e.PASSWORD_CODE_TTL_MINUTES,
    statisticsCacheSeconds: e.STATISTICS_CACHE_SECONDS,
    resourceLinkTtlMinutes: e.RESOURCE_LINK_TTL_MINUTES,
    publicUrl,
    schedulerIntervalSeconds: e.SCHEDULER_INTERVAL_SECONDS,
    scheduleTimeZone: e.SCHEDULE_TIME_ZONE,
    emailLeaseSeconds: e.EMAIL_LEASE_SECONDS,
    importLeaseSeconds: e.IMPORT_LEASE_SECONDS,
    importMaxAttempts: e.IMPORT_MAX_ATTEMPTS,
    metricsToken: e.METRICS_TOKEN,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    support: { email: e.SUPPORT_EMAIL ?? addressOf(e.SMTP_FROM), phone: e.SUPPORT_PHONE },
    logLevel: e.LOG_LEVEL,
    enableSuperfakeLogin: e.ENABLE_SUPERFAKE_LOGIN,
    oidc,
    newLoginEnabled: e.NEW_LOGIN_ENABLED,
    adminPasswordLogin: e.ADMIN_PASSWORD_LOGIN,
    secureCookies: publicUrl.startsWith('https://'),
    trustProxy,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? defaultWebDistDir()),
    ...secondFactorConfig(e, publicUrl),
    ...auditConfig(e, dataDir),
    ...storageConfigOrError(e, dataDir),
    ...callLimitsConfig(e),
    ...bounceMailboxConfig(e),
    ...mailAuthConfig(e, (message) => new ConfigError(`Invalid configuration:\n  ${message}`)),
    ...emailEventsConfig(e, (message) => new ConfigError(`Invalid configuration:\n  ${message}`)),
  };
}

function defaultWebDistDir(): string {
  // apps/api/dist/main.js and apps/api/src/config.ts both sit two levels below apps/.
  return path.resolve(import.meta.dirname, '../../web/dist');
}

/**
 * Without SESSION_SECRET, a secret is made once and kept in DATA_DIR so that sessions
 * survive a restart. Several processes behind a load balancer must share SESSION_SECRET.
 */
function persistedSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, '.session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
