import { createHmac, createSign, generateKeyPairSync, sign } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailEvents, emailSuppressions } from '../../db/schema/index.js';
import { expectError, testContext } from '../../../test/kit.js';
import { createTestContext } from '../../../test/test-app.js';

/**
 * The providers' webhooks with real signatures made here: an ECDSA key for SendGrid, an HMAC
 * for Mailgun, basic credentials for Postmark, and for SES an SNS message signed with a key
 * whose certificate a local https server hands out (its host allowed by SES_SNS_CERT_HOST_PATTERN,
 * its self-signed certificate trusted by this process only).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'sns-'));
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-keyout',
    path.join(dir, 'key.pem'),
    '-out',
    path.join(dir, 'cert.pem'),
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost',
  ],
  { stdio: 'ignore' },
);
const snsKey = readFileSync(path.join(dir, 'key.pem'), 'utf8');
const snsCert = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
const visited: string[] = [];
const sns = https.createServer({ key: snsKey, cert: snsCert }, (request, response) => {
  visited.push(request.url ?? '');
  response.writeHead(request.url === '/cert.pem' || request.url?.startsWith('/confirm') ? 200 : 404);
  response.end(request.url === '/cert.pem' ? snsCert : '<ConfirmSubscriptionResponse/>');
});
let snsBase = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => sns.listen(0, 'localhost', () => resolve()));
  snsBase = `https://localhost:${(sns.address() as AddressInfo).port}`;
  https.globalAgent.options.ca = [snsCert];
});
afterAll(() => new Promise<void>((resolve) => sns.close(() => resolve())));

const sendgridKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:pss-bounces';
const env = {
  SES_SNS_TOPIC_ARN: TOPIC,
  SES_SNS_CERT_HOST_PATTERN: '^localhost:\\d+$',
  SENDGRID_WEBHOOK_PUBLIC_KEY: sendgridKeys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  MAILGUN_WEBHOOK_SIGNING_KEY: 'key-mailgun-signing-0123456789',
  POSTMARK_WEBHOOK_USER: 'postmark',
  POSTMARK_WEBHOOK_PASSWORD: 'a-long-webhook-password',
};
const ctx = testContext({ env });
const now = () => ctx.clock.now();

const post = (provider: string, payload: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/email-events/${provider}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload,
  });
const suppressionOf = async (email: string) =>
  (await ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, email)))[0];

/** An SNS message as SNS signs it (SignatureVersion 2: SHA256withRSA over its fields in order). */
function snsMessage(fields: Record<string, string>, certUrl = `${snsBase}/cert.pem`) {
  const message: Record<string, string> = {
    MessageId: `m-${Math.random().toString(36).slice(2)}`,
    TopicArn: TOPIC,
    Timestamp: now().toISOString(),
    SignatureVersion: '2',
    SigningCertURL: certUrl,
    ...fields,
  };
  const keys =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'SubscribeURL', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'Subject', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const signer = createSign('RSA-SHA256');
  for (const key of keys) if (key in message) signer.update(`${key}\n${message[key]}\n`);
  return { ...message, Signature: signer.sign(snsKey, 'base64') };
}

const sesBounce = (email: string, bounceType: 'Permanent' | 'Transient') =>
  JSON.stringify({
    notificationType: 'Bounce',
    bounce: {
      bounceType,
      feedbackId: `fb-${email}-${bounceType}`,
      bouncedRecipients: [{ emailAddress: email, status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    },
    mail: { source: 'bounces+0b9c6c1e-8d2f-4c4e-9a51-3f2d7e6a1b20@example.org', commonHeaders: {} },
  });

describe('POST /email-events/ses', () => {
  it('confirms the subscription to the configured topic, then a signed bounce suppresses', async () => {
    const confirm = snsMessage({
      Type: 'SubscriptionConfirmation',
      Message: 'You have chosen to subscribe',
      Token: 'token-1',
      SubscribeURL: `${snsBase}/confirm?Token=token-1`,
    });
    // SNS sends its JSON as text/plain.
    const confirmed = await post('ses', JSON.stringify(confirm), { 'content-type': 'text/plain; charset=UTF-8' });
    expect(confirmed.statusCode).toBe(200);
    expect(visited).toContain('/confirm?Token=token-1');

    const note = snsMessage({ Type: 'Notification', Message: sesBounce('Ses.Hard@example.org', 'Permanent') });
    const answered = await post('ses', JSON.stringify(note), { 'content-type': 'text/plain; charset=UTF-8' });
    expect({ status: answered.statusCode, body: answered.json() }).toEqual({ status: 200, body: { events: 1 } });
    expect(await suppressionOf('ses.hard@example.org')).toMatchObject({ reason: 'HARD_BOUNCE', source: 'ses' });
    // Delivered again by SNS: recorded once.
    expect((await post('ses', JSON.stringify(note))).statusCode).toBe(200);
    expect(await ctx.db.select().from(emailEvents).where(eq(emailEvents.email, 'ses.hard@example.org'))).toHaveLength(
      1,
    );
  });

  it('a wrong signature, another topic or a certificate from another host is 401 and changes nothing', async () => {
    const note = snsMessage({ Type: 'Notification', Message: sesBounce('ses.forged@example.org', 'Permanent') });
    const forged = { ...note, Message: sesBounce('ses.victim@example.org', 'Permanent') };
    expectError(await post('ses', JSON.stringify(forged)), 401, 'NOT_AUTHORIZED');
    const otherTopic = snsMessage({
      Type: 'Notification',
      TopicArn: 'arn:aws:sns:eu-west-1:999999999999:other',
      Message: sesBounce('ses.victim@example.org', 'Permanent'),
    });
    expectError(await post('ses', JSON.stringify(otherTopic)), 401, 'NOT_AUTHORIZED');
    const elsewhere = snsMessage(
      { Type: 'Notification', Message: sesBounce('ses.victim@example.org', 'Permanent') },
      'https://attacker.example/cert.pem',
    );
    expectError(await post('ses', JSON.stringify(elsewhere)), 401, 'NOT_AUTHORIZED');
    expectError(await post('ses', '{"Type":"Notification"}'), 401, 'NOT_AUTHORIZED');
    expectError(await post('ses', '{not json'), 400, 'VALIDATION_ERROR');
    expect(await suppressionOf('ses.victim@example.org')).toBeUndefined();
    expect(await suppressionOf('ses.forged@example.org')).toBeUndefined();
  });
});

describe('POST /email-events/sendgrid', () => {
  const signed = (body: string, timestamp = String(Math.floor(now().getTime() / 1000))) => ({
    'x-twilio-email-event-webhook-timestamp': timestamp,
    'x-twilio-email-event-webhook-signature': sign(
      'sha256',
      Buffer.from(timestamp + body),
      sendgridKeys.privateKey,
    ).toString('base64'),
  });
  const events = (email: string) =>
    JSON.stringify([
      { email, event: 'bounce', type: 'bounce', status: '5.1.1', reason: '550 unknown', sg_event_id: `sg-${email}` },
      { email: 'open@example.org', event: 'open', sg_event_id: 'sg-open' },
      { email: 'spam@example.org', event: 'spamreport', sg_event_id: 'sg-spam' },
    ]);

  it('a correctly signed batch suppresses its bounce and its spam report', async () => {
    const body = events('sg.hard@example.org');
    const answered = await post('sendgrid', body, signed(body));
    expect({ status: answered.statusCode, body: answered.json() }).toEqual({ status: 200, body: { events: 2 } });
    expect(await suppressionOf('sg.hard@example.org')).toMatchObject({ reason: 'HARD_BOUNCE', source: 'sendgrid' });
    expect(await suppressionOf('spam@example.org')).toMatchObject({ reason: 'COMPLAINT' });
    expect(await suppressionOf('open@example.org')).toBeUndefined();
  });

  it('a body changed after signing, another key or no signature is 401 and changes nothing', async () => {
    const body = events('sg.victim@example.org');
    const headers = signed(events('sg.other@example.org'));
    expectError(await post('sendgrid', body, headers), 401, 'NOT_AUTHORIZED');
    const otherKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    const timestamp = String(Math.floor(now().getTime() / 1000));
    expectError(
      await post('sendgrid', body, {
        'x-twilio-email-event-webhook-timestamp': timestamp,
        'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(timestamp + body), otherKey).toString(
          'base64',
        ),
      }),
      401,
      'NOT_AUTHORIZED',
    );
    expectError(await post('sendgrid', body), 401, 'NOT_AUTHORIZED');
    expectError(
      await post('sendgrid', body, {
        'x-twilio-email-event-webhook-timestamp': timestamp,
        'x-twilio-email-event-webhook-signature': 'bm90IGEgc2lnbmF0dXJl',
      }),
      401,
      'NOT_AUTHORIZED',
    );
    expect(await suppressionOf('sg.victim@example.org')).toBeUndefined();
  });
});

describe('POST /email-events/mailgun', () => {
  const signedBody = (eventData: object, token: string, at = now()) => {
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const signature = createHmac('sha256', env.MAILGUN_WEBHOOK_SIGNING_KEY)
      .update(timestamp + token)
      .digest('hex');
    return { signature: { timestamp, token, signature }, 'event-data': eventData };
  };
  const failed = (email: string, severity = 'permanent') => ({
    event: 'failed',
    severity,
    recipient: email,
    'delivery-status': { code: 550, description: 'mailbox unavailable' },
  });

  it('a correctly signed permanent failure suppresses; its token is not taken twice', async () => {
    const body = JSON.stringify(signedBody(failed('mg.hard@example.org'), 'token-mg-1'));
    const answered = await post('mailgun', body);
    expect({ status: answered.statusCode, body: answered.json() }).toEqual({ status: 200, body: { events: 1 } });
    expect(await suppressionOf('mg.hard@example.org')).toMatchObject({ reason: 'HARD_BOUNCE', source: 'mailgun' });
    // The same signature and token on another event: refused.
    const replayed = signedBody(failed('mg.victim@example.org'), 'token-mg-1');
    expectError(await post('mailgun', JSON.stringify(replayed)), 401, 'NOT_AUTHORIZED');
    expect(await suppressionOf('mg.victim@example.org')).toBeUndefined();
  });

  it('a wrong signature or an old timestamp is 401 and changes nothing', async () => {
    const body = signedBody(failed('mg.victim@example.org'), 'token-mg-2');
    const wrong = { ...body, signature: { ...body.signature, signature: 'a'.repeat(64) } };
    expectError(await post('mailgun', JSON.stringify(wrong)), 401, 'NOT_AUTHORIZED');
    const old = signedBody(failed('mg.victim@example.org'), 'token-mg-3', new Date(now().getTime() - 10 * 60_000));
    expectError(await post('mailgun', JSON.stringify(old)), 401, 'NOT_AUTHORIZED');
    expectError(
      await post('mailgun', JSON.stringify({ 'event-data': failed('mg.victim@example.org') })),
      401,
      'NOT_AUTHORIZED',
    );
    expect(await suppressionOf('mg.victim@example.org')).toBeUndefined();
  });
});

describe('POST /email-events/postmark', () => {
  const credentials = (user: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });
  const bounce = (email: string, id: number) =>
    JSON.stringify({ RecordType: 'Bounce', Type: 'HardBounce', ID: id, Email: email, Description: 'Unknown user' });

  it('a call with the configured credentials suppresses', async () => {
    const answered = await post(
      'postmark',
      bounce('pm.hard@example.org', 1),
      credentials('postmark', env.POSTMARK_WEBHOOK_PASSWORD),
    );
    expect({ status: answered.statusCode, body: answered.json() }).toEqual({ status: 200, body: { events: 1 } });
    expect(await suppressionOf('pm.hard@example.org')).toMatchObject({ reason: 'HARD_BOUNCE', source: 'postmark' });
  });

  it('wrong or no credentials are 401 and change nothing', async () => {
    const body = bounce('pm.victim@example.org', 2);
    expectError(
      await post('postmark', body, credentials('postmark', 'a-long-webhook-passwore')),
      401,
      'NOT_AUTHORIZED',
    );
    expectError(
      await post('postmark', body, credentials('other', env.POSTMARK_WEBHOOK_PASSWORD)),
      401,
      'NOT_AUTHORIZED',
    );
    expectError(await post('postmark', body), 401, 'NOT_AUTHORIZED');
    expect(await suppressionOf('pm.victim@example.org')).toBeUndefined();
  });
});

describe('providers not configured, and unknown', () => {
  it('a provider without its credentials is 404; one the platform does not know is 400', async () => {
    const bare = await createTestContext();
    try {
      const answered = await bare.app.inject({ method: 'POST', url: '/api/email-events/sendgrid', payload: [] });
      expectError(answered as never, 404, 'NOT_FOUND');
    } finally {
      await bare.close();
    }
    expectError(await post('sparkpost', '{}'), 400, 'VALIDATION_ERROR');
  });
});
