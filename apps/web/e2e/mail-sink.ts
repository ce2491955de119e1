import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serverDataDir } from './fixtures';

/** Where start-server.mjs's SMTP server keeps what it received, one JSON file a message. */
const mailDir = () => `${serverDataDir()}-mail`;

export interface ReceivedMail {
  /** The SMTP envelope. */
  from: string | null;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Every message the test mail server has received so far, oldest first. */
export function receivedMail(): ReceivedMail[] {
  if (!existsSync(mailDir())) return [];
  return readdirSync(mailDir())
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort()
    .map((name) => {
      const stored = JSON.parse(readFileSync(path.join(mailDir(), name), 'utf8')) as {
        from: string | null;
        to: string[];
        raw: string;
      };
      const parsed = parseMessage(stored.raw);
      return { from: stored.from, to: stored.to, subject: parsed.subject, text: parsed.text, html: parsed.html };
    });
}

/** Waits (a bounded time) for a message the predicate picks, and answers it. */
export async function waitForMail(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = receivedMail().find(predicate);
    if (found) return found;
    if (Date.now() > until) {
      const seen = receivedMail().map((m) => `${m.to.join(',')}: ${m.subject}`);
      throw new Error(`no such email arrived within ${timeoutMs} ms; received: ${JSON.stringify(seen)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/* A small MIME reader: enough for what nodemailer writes (multipart/alternative, quoted-printable or base64 parts, encoded words). */

function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const found = { text: '', html: '' };
  const { headers, body } = splitPart(raw);
  collectParts(headers, body, found);
  return { subject: decodeWords(header(headers, 'subject')), ...found };
}

function splitPart(raw: string): { headers: string; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { headers: raw, body: '' };
  const separator = /\r?\n\r?\n/.exec(raw.slice(at))![0];
  return { headers: raw.slice(0, at).replace(/\r?\n[ \t]+/g, ' '), body: raw.slice(at + separator.length) };
}

function header(headers: string, name: string): string {
  return new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
}

function collectParts(headers: string, body: string, found: { text: string; html: string }) {
  const type = header(headers, 'content-type').toLowerCase() || 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(header(headers, 'content-type'))?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      const inner = splitPart(part.replace(/^\r?\n/, ''));
      collectParts(inner.headers, inner.body, found);
    }
    return;
  }
  const decoded = decodeBody(body, header(headers, 'content-transfer-encoding').toLowerCase());
  if (type.startsWith('text/html')) found.html ||= decoded;
  else if (type.startsWith('text/plain')) found.text ||= decoded;
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body.replace(/=\r?\n/g, ''));
  return body;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words of a header, joined as RFC 2047 says. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
