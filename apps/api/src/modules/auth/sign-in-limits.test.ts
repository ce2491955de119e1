import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../../lib/mailer.js';
import { createTokenService } from '../../lib/tokens.js';
import {
  createClient,
  createTestContext,
  createUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/test-app.js';
import { LINK_REQUESTS_PER_EMAIL } from './auth.service.js';

/** LOGIN_MAX_FAILURES is 3 here: 3 wrong passwords per email, 15 per address. */
let ctx: TestContext;
let clientId: string;

beforeAll(async () => {
  ctx = await createTestContext({ env: { LOGIN_MAX_FAILURES: '3' } });
  clientId = (await createClient(ctx.db)).id;
});
afterAll(() => ctx.close());

function signIn(
  context: TestContext,
  email: string,
  password: string,
  from: { remoteAddress: string; forwardedFor?: string },
) {
  return context.app.inject({
    method: 'POST',
    url: '/api/auth/login/user',
    payload: { email, password },
    remoteAddress: from.remoteAddress,
    headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
  });
}

function askForLink(context: TestContext, email: string, remoteAddress: string) {
  return context.app.inject({ method: 'POST', url: '/api/auth/verify/email', payload: { email }, remoteAddress });
}

const statuses = (answers: { statusCode: number }[]) =>
  answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.statusCode]: (acc[a.statusCode] ?? 0) + 1 }), {});

describe('the sign-in limit', () => {
  it('lets no more than the limit of 30 parallel wrong guesses be checked, then refuses the right password', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(ctx, user.email, `wrong-${i}`, { remoteAddress: '10.40.0.1' })),
    );
    expect(statuses(answers)).toEqual({ 401: 3, 429: 27 });
    const right = await signIn(ctx, user.email, TEST_PASSWORD, { remoteAddress: '10.40.0.2' });
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBe(String(15 * 60));
  });

  it('does not count a right password as a failure', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    for (let i = 0; i < 5; i++) {
      expect((await signIn(ctx, user.email, TEST_PASSWORD, { remoteAddress: '10.40.1.1' })).statusCode).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      expect((await signIn(ctx, user.email, 'wrong', { remoteAddress: '10.40.1.1' })).statusCode).toBe(401);
    }
    expect((await signIn(ctx, user.email, TEST_PASSWORD, { remoteAddress: '10.40.1.1' })).statusCode).toBe(429);
  });

  it('counts per connecting address, whatever X-Forwarded-For says, when no proxy is trusted', async () => {
    const answers = [];
    for (let i = 0; i < 16; i++) {
      answers.push(
        await signIn(ctx, `nobody-${i}@example.test`, 'wrong', {
          remoteAddress: '10.40.2.1',
          forwardedFor: `192.0.2.${i + 1}`,
        }),
      );
    }
    // 15 per address: the 16th is refused although it claims another address.
    expect(answers.map((a) => a.statusCode)).toEqual([...Array<number>(15).fill(401), 429]);
  });

  it('takes the address from X-Forwarded-For sent by a trusted proxy (TRUST_PROXY)', async () => {
    const behindProxy = await createTestContext({ env: { LOGIN_MAX_FAILURES: '3', TRUST_PROXY: '10.40.3.0/24' } });
    try {
      const answers = [];
      for (let i = 0; i < 16; i++) {
        answers.push(
          await signIn(behindProxy, `nobody-${i}@example.test`, 'wrong', {
            remoteAddress: '10.40.3.7',
            forwardedFor: `192.0.2.${i + 1}`,
          }),
        );
      }
      expect(answers.every((a) => a.statusCode === 401)).toBe(true);
      // A caller that is not the proxy cannot choose its address.
      for (let i = 0; i < 15; i++) {
        await signIn(behindProxy, `someone-${i}@example.test`, 'wrong', {
          remoteAddress: '10.40.4.1',
          forwardedFor: `198.51.100.${i + 1}`,
        });
      }
      const spoofed = await signIn(behindProxy, 'last@example.test', 'wrong', {
        remoteAddress: '10.40.4.1',
        forwardedFor: '198.51.100.200',
      });
      expect(spoofed.statusCode).toBe(429);
    } finally {
      await behindProxy.close();
    }
  });
});

describe('asking for a sign-in link', () => {
  it(`answers 429 with Retry-After after ${LINK_REQUESTS_PER_EMAIL} requests for one address, known or not`, async () => {
    const user = await createUser(ctx.db, { role: 'HALFUSER', clientId, withPassword: false });
    for (const email of [user.email, 'unknown-person@example.test']) {
      for (let i = 0; i < LINK_REQUESTS_PER_EMAIL; i++) {
        expect((await askForLink(ctx, email, `10.41.0.${i + 1}`)).statusCode).toBe(202);
      }
      const refused = await askForLink(ctx, email, '10.41.0.99');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().errorCode).toBe('TOO_MANY_REQUESTS');
      expect(refused.headers['retry-after']).toBe(String(15 * 60));
    }
  });

  it('answers 429 to one caller asking for many addresses', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => askForLink(ctx, `many-${i}@example.test`, '10.41.1.1')),
    );
    // 15 per caller (LOGIN_MAX_FAILURES × 5), counted atomically even in parallel.
    expect(statuses(answers)).toEqual({ 202: 15, 429: 5 });
  });

  it('answers before the mail is sent: a slow mail server does not tell known addresses apart', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: MailMessage[] = [];
    const slow = await createTestContext({
      mailer: {
        async send(message) {
          await held;
          sent.push(message);
        },
      },
    });
    try {
      const user = await createUser(slow.db, { role: 'USER', clientId: null });
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 3000));
      const answer = await Promise.race([askForLink(slow, user.email, '10.41.2.1'), timeout]);
      expect(answer).not.toBe('timeout');
      expect(answer === 'timeout' ? 0 : answer.statusCode).toBe(202);
      expect(sent).toHaveLength(0);
      release();
    } finally {
      release();
      // Closing waits for the mail still being sent.
      await slow.close();
    }
    expect(sent.map((m) => m.subject)).toEqual(['Your Patient Simulation Platform sign-in link']);
  });
});

describe('the log', () => {
  it('never holds a sign-in link: not from the mail it could not send, nor from the link page’s path', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    // No SMTP_URL: the mailer only logs.
    const logged = await createTestContext({ env: { LOG_LEVEL: 'info' }, logger: { stream } });
    const user = await createUser(logged.db, { role: 'HALFUSER', clientId: null, withPassword: false });
    const token = await createTokenService(logged.config.sessionSecret, 900).signLinkToken(
      user.id,
      logged.clock.now(),
      30,
    );
    try {
      expect((await askForLink(logged, user.email, '10.42.0.1')).statusCode).toBe(202);
      await logged.app.inject({ method: 'GET', url: `/participant/link/${token}` });
      const signedIn = await logged.app.inject({ method: 'POST', url: '/api/auth/login/halfuser', payload: { token } });
      expect(signedIn.statusCode).toBe(200);
    } finally {
      await logged.close();
    }
    const log = lines.join('');
    expect(log).toContain('email not sent (no SMTP_URL)');
    expect(log).toContain('/participant/link/[redacted]');
    expect(log).not.toContain(token);
    // No JSON web token at all (links and access tokens both are).
    expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
  });
});
