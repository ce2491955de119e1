import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpPeer } from '../../test/smtp-peer.js';
import { ConfigError, loadConfig } from '../config.js';
import { createMailer } from './mailer.js';

/**
 * An independent verifier: Debian's python3-dkim (dkimpy), given the public key's TXT record
 * directly instead of asking DNS. Debian's own python, not one a version manager put first on
 * PATH (CI installs the package in .ci/run).
 */
const VERIFY = `
import sys, dkim
record = sys.argv[1].encode()
expected = sys.argv[2].encode()
def dnsfunc(name, timeout=5):
    return record if name.rstrip(b'.') == expected else None
print('pass' if dkim.verify(sys.stdin.buffer.read(), dnsfunc=dnsfunc) else 'fail')
`;

function dkimVerify(raw: string, record: string, selector: string, domain: string): string {
  return execFileSync('/usr/bin/python3', ['-c', VERIFY, record, `${selector}._domainkey.${domain}`], {
    input: Buffer.from(raw, 'utf8'),
  })
    .toString()
    .trim();
}

describe('DKIM signing', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  const closing: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close();
  });

  it('signs each message so that an independent implementation verifies it, and a changed body fails', async () => {
    const smtp = await startSmtpPeer();
    closing.push(() => smtp.close());
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'Patient Simulation Platform <no-reply@mail.example.org>',
      log: { info() {} },
      dkim: { domainName: 'mail.example.org', keySelector: 'pss2026', privateKey: pem },
    });
    closing.push(() => mailer.close?.());
    await mailer.send({
      to: 'clinician@example.com',
      subject: 'Your patient cases — round 2',
      text: 'Dear Dr. Sample,\n\nNew cases are waiting.\n',
      html: '<p>Dear Dr. Sample,</p><p>New cases are waiting.</p>',
      messageId: '<0b6c1d1e-0000-4000-8000-000000000001@mail.example.org>',
      headers: {
        'List-Unsubscribe': '<https://pss.example.org/api/unsubscribe/abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    const raw = smtp.received[0]!.raw;
    const signature = /^DKIM-Signature:[^\n]*(\r?\n[ \t][^\n]*)*/im.exec(raw)![0].replace(/\r?\n[ \t]+/g, ' ');
    expect(signature).toMatch(/d=mail\.example\.org/);
    expect(signature).toMatch(/s=pss2026/);
    // RFC 8058: both unsubscribe fields are covered by the signature.
    expect(signature.toLowerCase()).toMatch(/h=[^;]*list-unsubscribe:list-unsubscribe-post/);

    expect(dkimVerify(raw, record, 'pss2026', 'mail.example.org')).toBe('pass');
    // The verifier can say no: a body changed on the way, a header field changed, another key.
    const body = raw.indexOf('\r\n\r\n');
    const changed = raw.slice(0, body) + raw.slice(body).replace('New cases', 'Old cases');
    expect(changed).not.toBe(raw);
    expect(dkimVerify(changed, record, 'pss2026', 'mail.example.org')).toBe('fail');
    expect(dkimVerify(raw.replace('/unsubscribe/abc', '/unsubscribe/abd'), record, 'pss2026', 'mail.example.org')).toBe(
      'fail',
    );
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    const otherRecord = `v=DKIM1; k=rsa; p=${other.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    expect(dkimVerify(raw, otherRecord, 'pss2026', 'mail.example.org')).toBe('fail');
  }, 30_000);

  it('is configured with all three variables or none, the key inline or from a file', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-dkim-'));
    const base = { DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(40) };
    expect(loadConfig(base).dkim).toBeUndefined();
    const inline = loadConfig({ ...base, DKIM_DOMAIN: 'Mail.Example.org', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: pem });
    expect(inline.dkim).toMatchObject({ domainName: 'mail.example.org', keySelector: 's1' });
    // A key on one line of an .env file, its line breaks written as \n.
    const oneLine = pem.trim().replace(/\n/g, '\\n');
    expect(
      loadConfig({ ...base, DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: oneLine }).dkim,
    ).toMatchObject({ privateKey: pem });
    const file = path.join(dataDir, 'dkim.pem');
    writeFileSync(file, pem, { mode: 0o600 });
    expect(
      loadConfig({ ...base, DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY_FILE: file }).dkim,
    ).toMatchObject({ privateKey: pem });

    const refused = (env: Record<string, string>, message: RegExp) => {
      let error: unknown;
      try {
        loadConfig({ ...base, ...env });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect(String(error)).toMatch(message);
      // The key never appears in the message.
      expect(String(error)).not.toContain('PRIVATE KEY-----');
    };
    refused({ DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1' }, /must be set together/);
    refused({ DKIM_PRIVATE_KEY: pem }, /must be set together/);
    refused({ DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: 'not a key' }, /RSA private key/);
    refused(
      { DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY_FILE: '/nonexistent/k.pem' },
      /cannot read/,
    );
    refused(
      { DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: pem, DKIM_PRIVATE_KEY_FILE: file },
      /one of the two/,
    );
    refused({ DKIM_DOMAIN: 'not a domain', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: pem }, /DKIM_DOMAIN/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    refused({ DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: ec.toString() }, /RSA private key/);
  });
});
