import { createHash } from 'node:crypto';
import { simpleParser, type Attachment, type HeaderValue, type ParsedMail } from 'mailparser';
import type { EmailEvent } from './email-events.js';
import { outboxIdFromVerp } from './email-return-path.js';

/**
 * Reads one message from the bounce mailbox into the events it reports: RFC 3464 delivery
 * reports (bounces) and RFC 5965 feedback reports (complaints), both `multipart/report`.
 * Anything else — an out-of-office reply, a person answering the return path, spam — is no
 * event: guessing at free-text bounces would suppress addresses on an auto-reply's word.
 * A message that cannot be parsed is no event either; it never throws.
 */

/** A report names at most this many recipients (a DSN has one group per recipient). */
const MAX_RECIPIENTS = 100;
const uuidAt = /^<?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@[^>\s]+>?$/i;
const emailPattern = /^[^\s@<>]+@[^\s@<>]+$/;

/** A header block (`Name: value` lines, folded lines joined), names lower-cased; the first of each name wins. */
export function headerFields(block: string): Map<string, string> {
  const fields = new Map<string, string>();
  const unfolded = block.replace(/\r\n/g, '\n').replace(/\n[ \t]+/g, ' ');
  for (const line of unfolded.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** The groups of fields of a `message/delivery-status` body: the per-message one first, then one per recipient. */
function fieldGroups(body: string): Map<string, string>[] {
  return body
    .replace(/\r\n/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((group) => headerFields(group))
    .filter((group) => group.size > 0);
}

/** `rfc822; someone@example.org` (a DSN's address type first) → `someone@example.org`, or null. */
function typedAddress(value: string | undefined): string | null {
  if (!value) return null;
  const address = value
    .replace(/^[a-z0-9-]+\s*;/i, '')
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim();
  return emailPattern.test(address) ? address.toLowerCase() : null;
}

/** The outbox id a Message-ID of ours carries (`<outbox id@host>`), or null. */
function outboxIdFromMessageId(messageId: string | undefined): string | null {
  const match = messageId ? uuidAt.exec(messageId.trim()) : null;
  return match ? match[1]!.toLowerCase() : null;
}

function headerText(value: HeaderValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => headerText(v as HeaderValue));
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && 'value' in value && Array.isArray(value.value)) {
    // An address header: every address it names.
    return (value.value as { address?: string }[]).flatMap((a) => (a.address ? [a.address] : []));
  }
  if (typeof value === 'object' && 'text' in value && typeof value.text === 'string') return [value.text];
  return [];
}

/** The outbox id of the VERP address the report was delivered to (Delivered-To, X-Original-To, To). */
function outboxIdFromDelivery(mail: ParsedMail): string | null {
  for (const name of ['delivered-to', 'x-original-to', 'to']) {
    for (const address of headerText(mail.headers.get(name))) {
      const id = outboxIdFromVerp(address);
      if (id) return id;
    }
  }
  return null;
}

/** The returned original: a `message/rfc822` part or just its headers (`text/rfc822-headers`). */
function returnedHeaders(attachments: Attachment[]): Map<string, string> | null {
  const part = attachments.find((a) =>
    ['message/rfc822', 'text/rfc822-headers', 'message/rfc822-headers'].includes(a.contentType.toLowerCase()),
  );
  if (!part) return null;
  const text = part.content.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  return headerFields(end < 0 ? text : text.slice(0, end));
}

function partText(attachments: Attachment[], contentType: string): string | null {
  const part = attachments.find((a) => a.contentType.toLowerCase() === contentType);
  return part ? part.content.toString('utf8') : null;
}

/** The report's own id: its Message-ID, or a hash of the whole message when it has none. */
function reportId(mail: ParsedMail, raw: Buffer): string {
  const id = mail.messageId?.trim().replace(/^<(.*)>$/, '$1');
  if (id && id.length <= 200) return id;
  return `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

/** When the report was made: its Date, but never later than now (a wrong clock, or a forged date). */
function reportedAt(mail: ParsedMail, now: Date): Date {
  const date = mail.date;
  return date && !Number.isNaN(date.getTime()) && date.getTime() <= now.getTime() ? date : now;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 500);

function deliveryEvents(mail: ParsedMail, raw: Buffer, now: Date): EmailEvent[] {
  const body = partText(mail.attachments, 'message/delivery-status');
  if (!body) return [];
  const [, ...recipients] = fieldGroups(body);
  const returned = returnedHeaders(mail.attachments);
  const outboxId = outboxIdFromDelivery(mail) ?? outboxIdFromMessageId(returned?.get('message-id'));
  const id = reportId(mail, raw);
  const at = reportedAt(mail, now);
  const events: EmailEvent[] = [];
  for (const group of recipients.slice(0, MAX_RECIPIENTS)) {
    const email = typedAddress(group.get('original-recipient')) ?? typedAddress(group.get('final-recipient'));
    const action = (group.get('action') ?? '').toLowerCase().split(/\s/)[0];
    const status = /^([245])\.\d{1,3}\.\d{1,3}/.exec(group.get('status') ?? '')?.[0] ?? null;
    if (!email) continue;
    let type: EmailEvent['type'] | null = null;
    if (action === 'failed') type = status?.startsWith('4') ? 'SOFT_BOUNCE' : 'HARD_BOUNCE';
    else if (action === 'delayed') type = 'SOFT_BOUNCE';
    // delivered, relayed, expanded: the message went on; nothing to record.
    if (!type) continue;
    const diagnostic = group.get('diagnostic-code') ?? '';
    events.push({
      type,
      email,
      outboxId,
      detail: oneLine(`${action} ${status ?? ''} ${diagnostic}`),
      source: 'imap',
      // One report may name several recipients: each is its own event.
      externalId: `${id} ${email}`,
      at,
    });
  }
  return events;
}

function feedbackEvents(mail: ParsedMail, raw: Buffer, now: Date): EmailEvent[] {
  const body = partText(mail.attachments, 'message/feedback-report');
  if (!body) return [];
  const report = headerFields(body);
  const returned = returnedHeaders(mail.attachments);
  const returnedTo = returned?.get('to');
  const email =
    typedAddress(report.get('original-rcpt-to')) ??
    typedAddress(/<([^>]+)>/.exec(returnedTo ?? '')?.[1] ?? returnedTo?.split(',')[0]);
  if (!email) return [];
  const outboxId =
    outboxIdFromVerp(report.get('original-mail-from') ?? '') ??
    outboxIdFromMessageId(returned?.get('message-id')) ??
    outboxIdFromDelivery(mail);
  const feedbackType = (report.get('feedback-type') ?? 'abuse').toLowerCase();
  const agent = report.get('user-agent');
  return [
    {
      type: 'COMPLAINT',
      email,
      outboxId,
      detail: oneLine(`${feedbackType} report${agent ? ` from ${agent}` : ''}`),
      source: 'imap',
      externalId: `${reportId(mail, raw)} ${email}`,
      at: reportedAt(mail, now),
    },
  ];
}

/** The events one raw message reports (none for anything but a delivery or feedback report). */
export async function parseBounceReport(raw: Buffer | string, now: Date): Promise<EmailEvent[]> {
  const source = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  let mail: ParsedMail;
  try {
    mail = await simpleParser(source, {
      // The report's parts as parts, not folded into the text; the returned message unparsed.
      keepDeliveryStatus: true,
      ignoreEmbedded: true,
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipImageLinks: true,
      skipTextLinks: true,
      checksumAlgo: false,
    });
  } catch {
    return [];
  }
  const contentType = mail.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  if (contentType?.value?.toLowerCase() !== 'multipart/report') return [];
  const reportType = (contentType.params?.['report-type'] ?? '').toLowerCase();
  try {
    if (reportType === 'delivery-status') return deliveryEvents(mail, source, now);
    if (reportType === 'feedback-report') return feedbackEvents(mail, source, now);
  } catch {
    // A report shaped in a way we did not foresee is no event, and no reason to stop reading the mailbox.
  }
  return [];
}
