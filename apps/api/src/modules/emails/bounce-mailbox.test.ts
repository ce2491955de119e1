import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.js';
import { createBounceMailbox, mailboxAddress, redactedMailbox, type BounceImapClient } from './bounce-mailbox.js';
import type { EmailEvent } from './email-events.js';
import type { DrainResult } from './email-sender.js';
import { createEmailWorker } from './email-worker.js';

/**
 * The mailbox reader's order of work, with an IMAP connection stood in for (the real one,
 * Dovecot fed by Postfix, is apps/api/test/mail-system.test.ts): events are recorded before
 * a message is flagged \Seen, a failure leaves the message for the next poll, and nothing
 * the reader logs holds the mailbox's password.
 */
const sample = (name: string) => readFileSync(path.join(import.meta.dirname, 'bounce-samples', name));
const PASSWORD = 's3cret-Pa55';
const URL_ = `imap://bounces%40example.org:${PASSWORD}@127.0.0.1:1143/Bounces`;

/** A mailbox of messages by uid, with the commands it was given. */
function fakeMailbox(messages: Map<number, Buffer>, failing: { connect?: Error } = {}) {
  const seen = new Set<number>();
  const commands: string[] = [];
  let locked = 0;
  const client = (): BounceImapClient => {
    const events = new EventEmitter();
    return {
      on: (event, listener) => events.on(event, listener),
      async connect() {
        commands.push('connect');
        if (failing.connect) throw failing.connect;
        // The socket reports an error of its own too: heard, not thrown.
        events.emit('error', new Error(`socket noise for ${PASSWORD}`));
      },
      async getMailboxLock(mailbox) {
        commands.push(`lock ${mailbox}`);
        locked += 1;
        return { release: () => void (locked -= 1) };
      },
      async search() {
        return [...messages.keys()].filter((uid) => !seen.has(uid));
      },
      async fetchOne(uid) {
        commands.push(`fetch ${uid}`);
        const source = messages.get(Number(uid));
        return source ? { source } : false;
      },
      async messageFlagsAdd(uid, flags) {
        commands.push(`flag ${uid} ${flags.join(' ')}`);
        seen.add(Number(uid));
        return true;
      },
      async logout() {
        commands.push('logout');
      },
      close() {
        commands.push('close');
      },
    };
  };
  return { client, seen, commands, locked: () => locked };
}

function logger() {
  const lines: { obj: unknown; msg: string }[] = [];
  const line = (obj: unknown, msg: string) => void lines.push({ obj, msg });
  return { lines, log: { info: line, warn: line, error: line } };
}

const clock = fixedClock('2026-12-07T15:00:00Z');
/** The emails of ours the samples name (outbox id → the address it went to). */
const sent = new Map([
  ['0e7a9c1e-1111-4222-8333-944445555666', 'nobody-here@clinic.test'],
  ['c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f', 'user@example.com'],
  ['5b0c6f7e-2c1d-4e8a-9f00-1a2b3c4d5e6f', 'dr.jane.roe@gmail.com'],
]);
const sentTo = async (id: string) => sent.get(id) ?? null;

describe('the bounce mailbox', () => {
  it('reads its address from BOUNCE_IMAP_URL and names it without the password', () => {
    const address = mailboxAddress(URL_);
    expect(address).toEqual({
      secure: false,
      host: '127.0.0.1',
      port: 1143,
      user: 'bounces@example.org',
      pass: PASSWORD,
      mailbox: 'Bounces',
    });
    expect(redactedMailbox(address)).toBe('imap://bounces%40example.org@127.0.0.1:1143/Bounces');
    expect(mailboxAddress('imaps://u:p@mail.example.org')).toMatchObject({ secure: true, port: 993, mailbox: 'INBOX' });
    expect(mailboxAddress('imap://u:p@mail.example.org/')).toMatchObject({
      secure: false,
      port: 143,
      mailbox: 'INBOX',
    });
    expect(() => mailboxAddress('https://mail.example.org')).toThrow(/imap/);
  });

  it('records each report’s events, then flags it \\Seen; what is no report is flagged too; the next poll has nothing', async () => {
    const box = fakeMailbox(
      new Map([
        [1, sample('postfix-unknown-user.eml')],
        [2, sample('out-of-office.eml')],
        [3, sample('arf-abuse-report.eml')],
      ]),
    );
    const recorded: EmailEvent[] = [];
    const { lines, log } = logger();
    const mailbox = createBounceMailbox({
      url: URL_,
      clock,
      log,
      sentTo,
      client: box.client,
      recordEvent: async (event) => {
        // Recorded before its message is flagged.
        expect(box.commands.at(-1)).toMatch(/^fetch /);
        recorded.push(event);
      },
    });
    expect(await mailbox.poll()).toEqual({ read: 3, events: 2 });
    expect(recorded.map((e) => [e.type, e.email, e.source])).toEqual([
      ['HARD_BOUNCE', 'nobody-here@clinic.test', 'imap'],
      ['COMPLAINT', 'user@example.com', 'imap'],
    ]);
    expect(box.commands).toEqual([
      'connect',
      'lock Bounces',
      'fetch 1',
      'flag 1 \\Seen',
      'fetch 2',
      'flag 2 \\Seen',
      'fetch 3',
      'flag 3 \\Seen',
      'logout',
    ]);
    expect(box.locked()).toBe(0);
    expect(await mailbox.poll()).toEqual({ read: 0, events: 0 });
    expect(recorded).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it('a report naming no email of ours is not recorded; one of ours suppresses the address that email went to', async () => {
    const postfix = sample('postfix-unknown-user.eml').toString('utf8');
    // A forger's report: Postfix's shape, a victim's address, an id no email of ours has.
    const forged = postfix
      .replaceAll('0e7a9c1e-1111-4222-8333-944445555666', '11111111-2222-4333-8444-555555555555')
      .replaceAll('nobody-here@clinic.test', 'victim@hospital.example.com');
    // Our email to nobody-here, forwarded there to another address that bounced.
    const forwarded = postfix
      .replace(/^Final-Recipient: .*$/m, 'Final-Recipient: rfc822; old.address@elsewhere.example')
      .replace(/^Original-Recipient: .*\n/m, '');
    const box = fakeMailbox(
      new Map([
        [1, Buffer.from(forged)],
        [2, Buffer.from(forwarded)],
      ]),
    );
    const recorded: EmailEvent[] = [];
    const { lines, log } = logger();
    const mailbox = createBounceMailbox({
      url: URL_,
      clock,
      log,
      sentTo,
      client: box.client,
      recordEvent: async (event) => void recorded.push(event),
    });
    expect(await mailbox.poll()).toEqual({ read: 2, events: 1, ignored: 1 });
    expect(recorded.map((e) => [e.email, e.outboxId, e.detail])).toEqual([
      [
        'nobody-here@clinic.test',
        '0e7a9c1e-1111-4222-8333-944445555666',
        'failed 5.1.1 X-Postfix; unknown user: "nobody-here" (reported for old.address@elsewhere.example)',
      ],
    ]);
    // Both are done with: the forged one is not read again.
    expect([...box.seen]).toEqual([1, 2]);
    expect(lines.map((l) => l.msg)).toContain('bounce report for no email of ours ignored');
  });

  it('an event that cannot be recorded leaves its message unseen, to be read again by the next poll', async () => {
    const box = fakeMailbox(
      new Map([
        [1, sample('gmail-no-such-user.eml')],
        [2, sample('postfix-unknown-user.eml')],
      ]),
    );
    let databaseDown = false;
    const recorded: string[] = [];
    const { lines, log } = logger();
    const mailbox = createBounceMailbox({
      url: URL_,
      clock,
      log,
      sentTo,
      client: box.client,
      recordEvent: async (event) => {
        if (event.email === 'nobody-here@clinic.test' && databaseDown) throw new Error('connection refused');
        recorded.push(event.email);
      },
    });
    databaseDown = true;
    expect(await mailbox.poll()).toEqual({ read: 1, events: 1 });
    expect([...box.seen]).toEqual([1]);
    expect(box.commands.slice(-2)).toEqual(['fetch 2', 'close']);
    expect(box.locked()).toBe(0);
    expect(lines.find((l) => l.msg === 'bounce mailbox could not be read')?.obj).toMatchObject({
      mailbox: 'imap://bounces%40example.org@127.0.0.1:1143/Bounces',
      err: { message: 'connection refused' },
    });
    databaseDown = false;
    expect(await mailbox.poll()).toEqual({ read: 1, events: 1 });
    expect(recorded).toEqual(['dr.jane.roe@gmail.com', 'nobody-here@clinic.test']);
    expect([...box.seen]).toEqual([1, 2]);
  });

  it('a mailbox that cannot be reached is logged without its password and tried again; the poll does not throw', async () => {
    const refused = Object.assign(new Error(`Authentication failed for bounces:${PASSWORD}`), { code: 'AUTH' });
    const box = fakeMailbox(new Map([[1, sample('postfix-unknown-user.eml')]]), { connect: refused });
    const { lines, log } = logger();
    const mailbox = createBounceMailbox({
      url: URL_,
      clock,
      log,
      sentTo,
      client: box.client,
      recordEvent: async () => {},
    });
    expect(await mailbox.poll()).toEqual({ read: 0, events: 0 });
    expect(box.commands).toEqual(['connect', 'close']);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.obj).toMatchObject({ err: { message: 'Authentication failed for bounces:***', code: 'AUTH' } });
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it('a real connection refused (nothing listening) is a logged failure, not a crash', async () => {
    const { lines, log } = logger();
    const mailbox = createBounceMailbox({
      url: `imap://u:${PASSWORD}@127.0.0.1:1/INBOX`,
      clock,
      log,
      sentTo,
      recordEvent: async () => {},
    });
    expect(await mailbox.poll()).toEqual({ read: 0, events: 0 });
    expect(lines.map((l) => l.msg)).toContain('bounce mailbox could not be read');
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it('the email worker reads the mailbox on its own interval, and its stop waits for a poll under way', async () => {
    let polls = 0;
    let pollEnded = false;
    const worker = createEmailWorker({
      scheduler: { run: async () => ({}) as never },
      sender: { drain: async () => ({}) as DrainResult },
      bounces: {
        poll: async () => {
          polls += 1;
          pollEnded = false;
          await new Promise((resolve) => setTimeout(resolve, 30));
          pollEnded = true;
        },
      },
    });
    const stop = worker.start({ schedulerIntervalMs: 60_000, bouncePollMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await stop();
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(pollEnded).toBe(true);
    const after = polls;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(polls).toBe(after);
  });
});
