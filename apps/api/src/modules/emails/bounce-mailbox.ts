import { ImapFlow } from 'imapflow';
import type { Clock } from '../../lib/clock.js';
import { parseBounceReport } from './bounce-reports.js';
import type { EmailEvent } from './email-events.js';

/**
 * Reads bounces and complaints from the mailbox the return path (VERP) delivers to, over
 * IMAP (`BOUNCE_IMAP_URL`): each poll takes the unseen messages, reads each into events
 * (`bounce-reports.ts`), records them, and only then flags the message \Seen. A process that
 * dies in between leaves the message unseen and the next poll reads it again; recording is
 * idempotent on the report's id, so it counts once. Several processes may poll one mailbox:
 * each holds the mailbox lock of its own connection while it works, and two that read the
 * same message record it once, for the same reason.
 *
 * The mailbox is an open door: anyone may mail it a report naming any address. So a report
 * counts only when it names an email of ours that went out (its outbox id, from the VERP
 * address it came back to or the returned Message-ID), and what is suppressed is the
 * address that email went to, whatever the report says (a forwarded address bounces under
 * another name, and only the one we send to can be suppressed). A forger would need the id
 * of an email sent to their victim, which only that email carries.
 */

/** Where the mailbox is, from `imap://user:pass@host:port/Mailbox` (or `imaps://`). */
export interface MailboxAddress {
  secure: boolean;
  host: string;
  port: number;
  user: string;
  pass: string;
  mailbox: string;
}

export function mailboxAddress(url: string): MailboxAddress {
  const u = new URL(url);
  if (u.protocol !== 'imap:' && u.protocol !== 'imaps:') throw new Error('BOUNCE_IMAP_URL must be imap:// or imaps://');
  const secure = u.protocol === 'imaps:';
  const mailbox = decodeURIComponent(u.pathname.replace(/^\//, ''));
  return {
    secure,
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port ? Number(u.port) : secure ? 993 : 143,
    user: decodeURIComponent(u.username),
    pass: decodeURIComponent(u.password),
    mailbox: mailbox || 'INBOX',
  };
}

/** The mailbox's address for a log: never its password. */
export function redactedMailbox(address: MailboxAddress): string {
  const scheme = address.secure ? 'imaps' : 'imap';
  return `${scheme}://${encodeURIComponent(address.user)}@${address.host}:${address.port}/${address.mailbox}`;
}

/** What an IMAP connection must do for the reader (ImapFlow does it; tests may stand in). */
export interface BounceImapClient {
  connect(): Promise<void>;
  getMailboxLock(path: string): Promise<{ release(): void }>;
  search(query: { seen: false }, options: { uid: true }): Promise<number[] | false | undefined>;
  fetchOne(
    uid: string,
    query: { source: true },
    options: { uid: true },
  ): Promise<{ source?: Buffer | undefined } | false>;
  messageFlagsAdd(uid: string, flags: string[], options: { uid: true }): Promise<boolean>;
  logout(): Promise<void>;
  close(): void;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

export interface BouncePollResult {
  /** Messages read and flagged \Seen. */
  read: number;
  /** Events recorded. */
  events: number;
  /** Events dropped: they named no email of ours that went out. */
  ignored?: number;
}

/** At most this many messages a poll: a flood of bounces is read over several polls, not one long one. */
const MAX_MESSAGES_PER_POLL = 200;

function imapClient(address: MailboxAddress): BounceImapClient {
  return new ImapFlow({
    host: address.host,
    port: address.port,
    secure: address.secure,
    auth: { user: address.user, pass: address.pass },
    // Its own logger writes every command to stdout; errors come back to us instead.
    logger: false,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    disableAutoIdle: true,
  }) as unknown as BounceImapClient;
}

export function createBounceMailbox(deps: {
  url: string;
  recordEvent(event: EmailEvent): Promise<void>;
  clock: Clock;
  log?: { info(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
  /** The address an email of ours went to (by outbox id), or null when no such email went out. */
  sentTo(outboxId: string): Promise<string | null>;
  /** Tests may stand in for the IMAP connection. */
  client?: (address: MailboxAddress) => BounceImapClient;
}) {
  /** The event as it is recorded (about the address the email went to), or null when it names no email of ours. */
  async function ours(event: EmailEvent): Promise<EmailEvent | null> {
    const to = event.outboxId ? (await deps.sentTo(event.outboxId))?.toLowerCase() : null;
    if (!to) return null;
    if (to === event.email) return event;
    return { ...event, email: to, detail: `${event.detail} (reported for ${event.email})`.slice(0, 500) };
  }

  const address = mailboxAddress(deps.url);
  const where = redactedMailbox(address);
  /** An error's words for the log, the password taken out should a server ever echo it. */
  const said = (error: unknown) => {
    const e = error as { message?: unknown; code?: unknown; responseText?: unknown };
    let text = [e.message, e.responseText].filter((t) => typeof t === 'string' && t).join(': ') || String(error);
    if (address.pass) text = text.split(address.pass).join('***');
    return { message: text.slice(0, 500), code: typeof e.code === 'string' ? e.code : undefined };
  };

  async function readMessages(client: BounceImapClient, result: BouncePollResult): Promise<void> {
    const lock = await client.getMailboxLock(address.mailbox);
    try {
      const unseen = (await client.search({ seen: false }, { uid: true })) || [];
      for (const uid of unseen.slice(0, MAX_MESSAGES_PER_POLL)) {
        const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
        // Gone since the search (another process moved or expunged it): nothing to do.
        if (!message || !message.source) continue;
        let recorded = 0;
        for (const reported of await parseBounceReport(message.source, deps.clock.now())) {
          const event = await ours(reported);
          if (!event) {
            result.ignored = (result.ignored ?? 0) + 1;
            deps.log?.info({ mailbox: where, email: reported.email }, 'bounce report for no email of ours ignored');
            continue;
          }
          await deps.recordEvent(event);
          recorded += 1;
        }
        // Only now: a crash before this line leaves the message to be read again.
        await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
        result.read += 1;
        result.events += recorded;
      }
    } finally {
      lock.release();
    }
  }

  return {
    /** The mailbox's address without its password, for the log. */
    where,

    /**
     * Reads what is unseen once. Never throws: a mailbox that cannot be reached, or an event
     * that cannot be recorded, is logged (without credentials) and tried again next poll.
     */
    async poll(): Promise<BouncePollResult> {
      const result: BouncePollResult = { read: 0, events: 0 };
      const client = (deps.client ?? imapClient)(address);
      // An error on the socket is emitted, not thrown: unheard, it would end the process.
      client.on('error', (error) => deps.log?.warn({ mailbox: where, err: said(error) }, 'bounce mailbox error'));
      try {
        await client.connect();
        await readMessages(client, result);
        await client.logout();
      } catch (error) {
        deps.log?.warn({ mailbox: where, err: said(error), read: result.read }, 'bounce mailbox could not be read');
        client.close();
      }
      if (result.read) deps.log?.info({ mailbox: where, ...result }, 'bounce mailbox read');
      return result;
    },
  };
}

export type BounceMailbox = ReturnType<typeof createBounceMailbox>;
