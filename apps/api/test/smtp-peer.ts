import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the test server took (answered 250 to). */
export interface Received {
  to: string[];
  /** The envelope sender (MAIL FROM): where the message's bounces go. */
  from: string;
  messageId: string;
  subject: string;
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 for tests (smtp-server). It takes a message only once it
 * has answered 250 to it, as a real server takes responsibility then. `hold()` makes it
 * keep every message that arrives waiting for that answer — the moment to kill a sender
 * "while sending" — and a message whose connection is lost while held is never taken.
 */
export async function startSmtpPeer(port = 0) {
  const received: Received[] = [];
  let holding = false;
  let held = 0;
  let answerDelayMs = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const take = () => {
          const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(raw)?.[1]?.trim() ?? '';
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            messageId: header('Message-ID'),
            subject: header('Subject'),
            raw,
          });
          callback();
        };
        if (!holding && answerDelayMs) return void setTimeout(take, answerDelayMs);
        if (!holding) return take();
        held += 1;
        // Held until the connection is gone (the sender was killed): never answered, never taken.
        const socket = (session as unknown as { socket?: NodeJS.EventEmitter }).socket;
        const lost = () => callback(new Error('connection lost'));
        if (socket) socket.once('close', lost);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    /** Messages waiting, unanswered, while holding. */
    held: () => held,
    hold(): void {
      holding = true;
    },
    release(): void {
      holding = false;
    },
    /** Answers each message only after `ms` (a slow server: sending then spans a while). */
    slow(ms: number): void {
      answerDelayMs = ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Waits until the condition holds, checking every 100 ms; fails after `ms`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
