import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, SERVING_ROLE, servingUrl } from './postgres-databases.js';

// The real entry point, as `npm start` runs it (from source here): first start, the
// console, the superadmin from the environment, and a clean exit on SIGTERM.
const apiRoot = path.resolve(import.meta.dirname, '..');
const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface Started {
  url: string;
  output: () => string;
  stop(): Promise<number | null>;
}

function start(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: apiRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // First start seeds the demo (clients, projects, participants and their finished cases): under a
    // minute alone, longer beside the fuzz tests on a busy 2-core machine.
    const timer = setTimeout(() => reject(new Error(`no start within 150 s:\n${output}`)), 150_000);
    child.stdout.on('data', () => {
      const match = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: match[1].replace('localhost', '127.0.0.1'),
        output: () => output,
        stop: async () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pss-main-'));
  dataDirs.push(dir);
  return dir;
}

/** The sign-ins printed once are kept in DATA_DIR/demo-sign-ins.txt, for the server's user alone. */
function expectSignInsKept(dataDir: string, output: string): void {
  const file = path.join(dataDir, 'demo-sign-ins.txt');
  expect(output).toContain(`also kept in ${file}, readable by this server's user alone`);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const kept = readFileSync(file, 'utf8');
  const printed = /Provider employee \(superadmin\): \S+ \/ \S+/.exec(output)![0];
  expect(kept.split('\n')).toContain(printed);
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the server process', () => {
  it('fills an empty data directory with demo data, prints the sign-ins once and stops cleanly', async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    expect(first.output()).toContain('audit trail: not protected — the embedded database has one role');
    expect(first.output()).toContain('Demo data was created');
    const signIn = /Provider employee \(superadmin\): (\S+) \/ (\S+)/.exec(first.output());
    expect(signIn).not.toBeNull();
    expectSignInsKept(dataDir, first.output());
    const login = await fetch(`${first.url}/api/auth/login/superadmin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: signIn![1], password: signIn![2] }),
    });
    expect(login.status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await start(dataDir);
    expect(second.output()).not.toContain('Demo data was created');
    expect(await second.stop()).toBe(0);
  }, 360_000);

  it('creates the superadmin from SUPERADMIN_EMAIL and SUPERADMIN_PASSWORD', async () => {
    const server = await start(tempDataDir(), {
      SUPERADMIN_EMAIL: 'owner@example.test',
      SUPERADMIN_PASSWORD: 'owner-password',
    });
    try {
      expect(server.output()).toContain('created superadmin owner@example.test');
      expect(server.output()).not.toContain('Demo data');
      const login = await fetch(`${server.url}/api/auth/login/superadmin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.test', password: 'owner-password' }),
      });
      // The default policy (MFA_REQUIRED_ROLES=superadmin): the password alone opens only the enrolment.
      expect(login.status).toBe(200);
      const half = (await login.json()) as { mfa_enrollment_required?: boolean; mfa_token: string };
      expect(half.mfa_enrollment_required).toBe(true);
      const me = await fetch(`${server.url}/api/users/me`, { headers: { authorization: `Bearer ${half.mfa_token}` } });
      expect(me.status).toBe(401);
      const enrol = await fetch(`${server.url}/api/auth/mfa/totp/enroll`, {
        method: 'POST',
        headers: { authorization: `Bearer ${half.mfa_token}` },
      });
      expect(enrol.status).toBe(200);
      expect(((await enrol.json()) as { secret: string }).secret).toMatch(/^[A-Z2-7]{32}$/);
      const wrong = await fetch(`${server.url}/api/auth/login/superadmin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.test', password: 'nope-nope' }),
      });
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as { errorCode: string }).errorCode).toBe('INCORRECT_PASSWORD');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 360_000);
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the server process on PostgreSQL', () => {
  it('fills an empty database with demo data and keeps its sign-ins in DATA_DIR as on the embedded one', async () => {
    const database = await createEmptyDatabase(process.env.TEST_DATABASE_URL!, 'pss_main');
    try {
      const dataDir = tempDataDir();
      // Two roles (issue #46): the owner (the run's user) migrates, a role that owns nothing serves.
      const serving = servingUrl(process.env.TEST_DATABASE_URL!, new URL(database.url).pathname.slice(1));
      const server = await start(dataDir, { DATABASE_OWNER_URL: database.url, DATABASE_URL: serving });
      try {
        expect(server.output()).toContain('Demo data was created');
        expect(server.output()).toContain('database: PostgreSQL');
        expect(server.output()).toContain(
          `audit trail: protected — the role the app serves with (${SERVING_ROLE}) may only read and append`,
        );
        const ready = (await (await fetch(`${server.url}/api/health/ready`)).json()) as {
          details: { audit_trail: { protected: boolean } };
        };
        expect(ready.details.audit_trail.protected).toBe(true);
        expectSignInsKept(dataDir, server.output());
      } finally {
        expect(await server.stop()).toBe(0);
      }
    } finally {
      await database.drop();
    }
  }, 360_000);
});
