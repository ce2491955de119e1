import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBounceReport } from './bounce-reports.js';

/**
 * Reports as mail systems write them: Postfix's own (taken from the real Postfix the
 * mail-system test starts), Gmail's and Exchange Online's delivery reports, a Postfix
 * delay warning, feedback reports shaped as RFC 5965's appendix — and what is not a report.
 */
const now = new Date('2026-12-07T15:00:00Z');
const sample = (name: string) => readFileSync(path.join(import.meta.dirname, 'bounce-samples', name));
const parse = (name: string) => parseBounceReport(sample(name), now);

describe('bounce and complaint reports', () => {
  it("Postfix's own bounce (unknown local user): a hard bounce of the email its VERP address names", async () => {
    expect(await parse('postfix-unknown-user.eml')).toEqual([
      {
        type: 'HARD_BOUNCE',
        email: 'nobody-here@clinic.test',
        outboxId: '0e7a9c1e-1111-4222-8333-944445555666',
        detail: 'failed 5.1.1 X-Postfix; unknown user: "nobody-here"',
        source: 'imap',
        externalId: '20261207140824.D24DD20CA32@mail.pss.test nobody-here@clinic.test',
        at: new Date('2026-12-07T14:08:24Z'),
      },
    ]);
  });

  it("Gmail's delivery report: the address lower-cased, the folded diagnostic on one line", async () => {
    const [event, ...more] = await parse('gmail-no-such-user.eml');
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      type: 'HARD_BOUNCE',
      email: 'dr.jane.roe@gmail.com',
      outboxId: '5b0c6f7e-2c1d-4e8a-9f00-1a2b3c4d5e6f',
      externalId: '65a3f1d4.050a0220.bd1f2.9c2bSMTPIN_ADDED_MISSING@mx.google.com dr.jane.roe@gmail.com',
      at: new Date('2026-12-01T17:12:04Z'),
    });
    expect(event!.detail).toMatch(
      /^failed 5\.1\.1 smtp; 550-5\.1\.1 The email account that you tried to reach does not exist/,
    );
    expect(event!.detail).not.toMatch(/\n/);
  });

  it("Exchange's report, delivered to a plain address: the email is told by the returned headers' Message-ID", async () => {
    expect(await parse('exchange-recipient-not-found.eml')).toEqual([
      expect.objectContaining({
        type: 'HARD_BOUNCE',
        // The recipient as we wrote it (Original-Recipient), not as the server rewrote it.
        email: 'j.smith@hospital.example.com',
        outboxId: '2f9d1c44-7a3e-4b6f-8c55-0e1d2c3b4a59',
        detail:
          'failed 5.1.10 smtp;550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
      }),
    ]);
  });

  it('a delay warning is a soft bounce; a recipient the same report says was delivered is no event', async () => {
    expect(await parse('delayed-mailbox-full.eml')).toEqual([
      expect.objectContaining({
        type: 'SOFT_BOUNCE',
        email: 'a.nurse@clinic.example.net',
        outboxId: '7d3e2f10-9a8b-4c7d-8e6f-5a4b3c2d1e0f',
        detail: 'delayed 4.2.2 smtp; 452 4.2.2 Mailbox full',
      }),
    ]);
  });

  it('a failure with a 4.x.x status is soft; one report naming two recipients is two events with their own ids', async () => {
    const raw = sample('postfix-unknown-user.eml')
      .toString('utf8')
      .replace(
        'Diagnostic-Code: X-Postfix; unknown user: "nobody-here"\n',
        'Diagnostic-Code: X-Postfix; unknown user: "nobody-here"\n\n' +
          'Final-Recipient: rfc822; second@clinic.test\nAction: failed\nStatus: 4.4.1\n' +
          'Diagnostic-Code: X-Postfix; connect to clinic.test: Connection timed out\n',
      );
    const events = await parseBounceReport(raw, now);
    expect(events.map((e) => [e.type, e.email, e.externalId])).toEqual([
      ['HARD_BOUNCE', 'nobody-here@clinic.test', '20261207140824.D24DD20CA32@mail.pss.test nobody-here@clinic.test'],
      ['SOFT_BOUNCE', 'second@clinic.test', '20261207140824.D24DD20CA32@mail.pss.test second@clinic.test'],
    ]);
  });

  it('an RFC 5965 abuse report is a complaint about Original-Rcpt-To, the email told by Original-Mail-From', async () => {
    expect(await parse('arf-abuse-report.eml')).toEqual([
      {
        type: 'COMPLAINT',
        email: 'user@example.com',
        outboxId: 'c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f',
        detail: 'abuse report from SomeGenerator/1.0',
        source: 'imap',
        externalId: 'arf-20261203-0001@feedback.example.com user@example.com',
        at: new Date('2026-12-03T21:40:36Z'),
      },
    ]);
  });

  it("a feedback report without Original-Rcpt-To or a Message-ID: the returned message's To and Message-ID, the report's hash as its id", async () => {
    const events = await parse('arf-no-rcpt-to.eml');
    expect(events).toEqual([
      expect.objectContaining({
        type: 'COMPLAINT',
        email: 'someone.else@mail.example.net',
        outboxId: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
        externalId: expect.stringMatching(/^sha256:[0-9a-f]{64} someone\.else@mail\.example\.net$/),
      }),
    ]);
    // The same report read twice has the same id: it is recorded once.
    expect((await parse('arf-no-rcpt-to.eml'))[0]!.externalId).toBe(events[0]!.externalId);
  });

  it('a report dated in the future is dated now', async () => {
    const [event] = await parseBounceReport(sample('postfix-unknown-user.eml'), new Date('2026-12-07T14:00:00Z'));
    expect(event!.at).toEqual(new Date('2026-12-07T14:00:00Z'));
  });

  it('an out-of-office reply to the return path is no event, whatever its words', async () => {
    expect(await parse('out-of-office.eml')).toEqual([]);
  });

  it('a report of another kind, or one whose recipient is no address, is no event', async () => {
    const postfix = sample('postfix-unknown-user.eml').toString('utf8');
    const otherKind = postfix.replace('report-type=delivery-status', 'report-type=disposition-notification');
    const noAddress = postfix.replace(/^(Final|Original)-Recipient: .*$/gm, '$1-Recipient: rfc822; undisclosed');
    const delivered = postfix.replace('Action: failed', 'Action: delivered').replace('Status: 5.1.1', 'Status: 2.0.0');
    for (const raw of [otherKind, noAddress, delivered]) expect(await parseBounceReport(raw, now)).toEqual([]);
  });

  it('malformed messages are no event and do not throw', async () => {
    const malformed = [
      '',
      'not a message at all',
      Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x0a, 0x0d, 0x0a]),
      // A report without its boundary, or with no delivery-status part.
      'Content-Type: multipart/report; report-type=delivery-status\n\nnothing here\n',
      'Content-Type: multipart/report; report-type=delivery-status; boundary=x\n\n--x\nContent-Type: text/plain\n\nhi\n--x--\n',
      // A delivery-status part of garbage, and a feedback report naming nobody.
      'Content-Type: multipart/report; report-type=delivery-status; boundary=x\n\n--x\nContent-Type: message/delivery-status\n\n:::\n\n\u0000\u0001: ;;\n--x--\n',
      'Content-Type: multipart/report; report-type=feedback-report; boundary=x\n\n--x\nContent-Type: message/feedback-report\n\nFeedback-Type: abuse\n--x--\n',
      // Thousands of nested parts.
      `Content-Type: multipart/mixed; boundary=a\n\n${'--a\nContent-Type: multipart/mixed; boundary=a\n\n'.repeat(3000)}`,
    ];
    for (const raw of malformed) await expect(parseBounceReport(raw, now)).resolves.toEqual([]);
  });
});
