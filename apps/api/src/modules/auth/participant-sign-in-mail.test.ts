import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createClient, createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import { expectError, tokenOfLink, type Reply } from '../../../test/kit.js';

const NOW = '2026-03-02T09:00:00Z';

/* ---------- emailed sign-in links, through a real SMTP server ---------- */

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** The text of a received message, with any transfer encoding undone. */
function textOf(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

describe('emailing a sign-in link', () => {
  let mailCtx: TestContext;
  let smtp: SMTPServer;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom;
          received.push({
            from: from ? from.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      smtp.once('error', reject);
      smtp.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = smtp.server.address() as AddressInfo;
    mailCtx = await createTestContext({
      now: NOW,
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        SMTP_FROM: 'PSS <no-reply@pss.example.test>',
        PUBLIC_URL: 'https://pss.example.test',
      },
    });
  });
  afterAll(async () => {
    await mailCtx?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  function askForLink(email: string) {
    return mailCtx.app.inject({
      method: 'POST',
      url: '/api/auth/verify/email',
      payload: { email },
    }) as Promise<Reply>;
  }

  it('mails a known participant one link that signs them in', async () => {
    const halfUser = await createUser(mailCtx.db, { role: 'HALFUSER', clientId: null, withPassword: false });
    const before = received.length;
    const response = await askForLink(` ${halfUser.email.toUpperCase()} `);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ sent: true });

    // The mail goes out after the answer.
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(before));
    const mine = received.slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.to).toEqual([halfUser.email]);
    expect(mine[0]!.from).toBe('no-reply@pss.example.test');
    expect(mine[0]!.raw).toMatch(/^subject: Your Patient Simulation Platform sign-in link/im);
    const text = textOf(mine[0]!.raw);
    expect(text).toContain('Hello Test,');
    expect(text).toContain(`https://pss.example.test/participant/link/`);

    const token = tokenOfLink(text);
    const signedIn = await mailCtx.app.inject({ method: 'POST', url: '/api/auth/login/halfuser', payload: { token } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { id: halfUser.id, role: 'HALFUSER', has_password: false } });
  });

  it('answers the same 202 for an unknown address and a staff address, and mails neither', async () => {
    const staff = await createUser(mailCtx.db, { role: 'ADMIN', clientId: (await createClient(mailCtx.db)).id });
    const boss = await createUser(mailCtx.db, { role: 'SUPERADMIN' });
    const known = await createUser(mailCtx.db, { role: 'USER' });
    const before = received.length;
    const answers = await Promise.all([
      askForLink('nobody@example.test'),
      askForLink(staff.email),
      askForLink(boss.email),
    ]);
    for (const response of answers) {
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ sent: true });
    }
    expect(received.length).toBe(before);

    // The mail server is there all along: a participant does get theirs (and it is the only one).
    expect((await askForLink(known.email)).body).toBe(answers[0]!.body);
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(before));
    expect(received.slice(before).map((m) => m.to)).toEqual([[known.email]]);
  });

  it('refuses a body without an email with 400', async () => {
    const response = (await mailCtx.app.inject({
      method: 'POST',
      url: '/api/auth/verify/email',
      payload: {},
    })) as Reply;
    expectError(response, 400, 'VALIDATION_ERROR');
  });
});
