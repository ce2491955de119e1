import { describe, expect, it, vi } from 'vitest';
import { redactUrl } from '../../app.js';
import { capturingMailer } from '../../../test/email-calls.js';
import { expectError, fieldIssues, testContext, type Reply } from '../../../test/kit.js';
import { createClient, createUser, TEST_PASSWORD } from '../../../test/test-app.js';

/**
 * Setting a password from an emailed link, without a session (spec §2: the public
 * `/create-password` and `/submit-password`): the code works once, and not after it expires.
 */
const capture = capturingMailer();
const ctx = testContext({
  now: '2026-03-02T09:00:00Z',
  mailer: capture.mailer,
  env: { PUBLIC_URL: 'https://pss.example.test', PASSWORD_CODE_TTL_MINUTES: '60' },
});

const askForCode = (email: string, remoteAddress = '10.9.0.1') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/password/code',
    payload: { email },
    remoteAddress,
  }) as Promise<Reply>;
const setPassword = (payload: object) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/password/reset', payload }) as Promise<Reply>;
const signIn = (email: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login/user', payload: { email, password } }) as Promise<Reply>;

/** The code of the last password link mailed to the address. */
async function mailedCode(email: string): Promise<string> {
  await vi.waitFor(() => expect(capture.sent.some((m) => m.to === email)).toBe(true));
  const message = capture.sent.filter((m) => m.to === email).at(-1)!;
  const link = /https:\/\/pss\.example\.test\/create-password\?code=([A-Za-z0-9_-]+)/.exec(message.text ?? '');
  expect(link, message.text).not.toBeNull();
  return link![1]!;
}

async function participant() {
  const client = await createClient(ctx.db);
  return createUser(ctx.db, { role: 'USER', clientId: client.id });
}

describe('a password set from an emailed link', () => {
  it('mails a participant a link whose code sets the password once, ending their sessions', async () => {
    const user = await participant();
    const before = await signIn(user.email, TEST_PASSWORD);
    expect(before.statusCode).toBe(200);

    const asked = await askForCode(user.email);
    expect([asked.statusCode, asked.json()]).toEqual([202, { sent: true }]);
    const code = await mailedCode(user.email);

    expect((await setPassword({ code, password: 'a-new-secret' })).statusCode).toBe(204);
    expect((await signIn(user.email, 'a-new-secret')).statusCode).toBe(200);
    expectError(await signIn(user.email, TEST_PASSWORD), 401, 'INCORRECT_PASSWORD');
    // The session held before is over.
    const refresh = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/user/refresh',
      cookies: Object.fromEntries(before.cookies.map((c) => [c.name, c.value])),
    });
    expect(refresh.statusCode).toBe(401);

    // Used once: a second use is refused, and the password stays.
    expectError(await setPassword({ code, password: 'another-secret' }), 400, 'PASSWORD_CODE_INVALID');
    expect((await signIn(user.email, 'a-new-secret')).statusCode).toBe(200);
  });

  it('refuses an expired code, and an earlier code once a newer one is asked for', async () => {
    const user = await participant();
    await askForCode(user.email);
    const first = await mailedCode(user.email);
    capture.clear();
    await askForCode(user.email);
    const second = await mailedCode(user.email);
    expectError(await setPassword({ code: first, password: 'a-new-secret' }), 400, 'PASSWORD_CODE_INVALID');

    ctx.clock.set('2026-03-02T10:01:00Z');
    expectError(await setPassword({ code: second, password: 'a-new-secret' }), 400, 'PASSWORD_CODE_INVALID');
    ctx.clock.set('2026-03-02T09:00:00Z');
    expectError(await signIn(user.email, 'a-new-secret'), 401, 'INCORRECT_PASSWORD');
  });

  it('answers the same for an unknown address or a staff member, and mails nothing', async () => {
    const admin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    capture.clear();
    for (const email of ['nobody@example.test', admin.email]) {
      const asked = await askForCode(email, '10.9.0.2');
      expect([asked.statusCode, asked.json()]).toEqual([202, { sent: true }]);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(capture.sent).toEqual([]);
  });

  it('refuses bad input, and too many requests for one address', async () => {
    expectError(await setPassword({ code: 'made-up', password: 'a-new-secret' }), 400, 'PASSWORD_CODE_INVALID');
    const short = await setPassword({ code: 'made-up', password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(fieldIssues(short).map((issue: { field: string }) => issue.field)).toEqual(['body.password']);
    expectError(await setPassword({ password: 'a-new-secret' }), 400, 'VALIDATION_ERROR');
    expectError(await askForCode(''), 400, 'VALIDATION_ERROR');

    const user = await participant();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await askForCode(user.email, '10.9.0.3')).statusCode);
    expect(answers).toEqual([202, 202, 202, 429]);
  });

  it('keeps the code, and every credential in a path, out of the request log', () => {
    expect(redactUrl('/create-password?code=abc123&x=1')).toBe('/create-password?code=[redacted]&x=1');
    expect(redactUrl('/participant/link/eyJhbGciOi')).toBe('/participant/link/[redacted]');
    expect(redactUrl('/api/resource-files/abc.def?download=1')).toBe('/api/resource-files/[redacted]?download=1');
  });
});
