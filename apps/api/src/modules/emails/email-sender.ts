import { isCertificateEmail } from '@pss/contract';
import type { Clock } from '../../lib/clock.js';
import { dayIn } from '../../lib/clock.js';
import { retryDelayMs } from '../../db/leased-queue.js';
import type { Mailer } from '../../lib/mailer.js';
import { daysBetween, finishingRules, summaryRules } from './email-rules.js';
import { certificateValues, longDate, renderEmail, type PlaceholderValues } from './email-render.js';
import { effectiveSupport } from './email-support.js';
import { verpAddress } from './email-return-path.js';
import { suppressionReason } from './email-suppression-check.js';
import type { EmailOutboxRepository, OutboxWork } from './email-outbox.repository.js';
import type { EmailPace } from './email-pace.js';
import type { SystemRecorder } from '../audit/call-recorder.service.js';

/** Who the footer tells participants to write to or call ({email}, {phone}). */
export interface SupportContact {
  email: string;
  phone: string;
}

/** The details a test send or a preview without a participant is filled with. */
export const sampleParticipant = { firstName: 'Alex', lastName: 'Sample', salutation: 'Dr.' };
/** The certificate a test send or a preview of the Certificate Email names (a code no certificate has). */
export const sampleCertificate = { code: 'XXXX-XXXX-XXXX-XXXX-XXXX', credits: 1.5 };

/**
 * How many days late a Certificate Email may still go. A round email speaks of its day (a
 * reminder of a round is pointless the day after), so it goes that day or the next; a
 * certificate stays earned, so its email should survive a mail server down over a weekend
 * or a sender stopped for a few days. Much later, the participant has long found the
 * certificate on their dashboard and a backlog of old news would only surprise them.
 */
export const CERTIFICATE_EMAIL_LATE_DAYS = 7;

/**
 * Messages a sender hands to the mail server at once. Also the most a process killed while
 * sending can send twice: each may have been accepted ("250") before its database write.
 */
export const SEND_CONCURRENCY = 4;

export interface SenderOptions {
  /** Rows claimed at a time. */
  batchSize?: number;
  /** Messages handed to the mail server at once. */
  concurrency?: number;
  /** How long a claim holds before another sender may take the row over (its sender died). */
  leaseMs?: number;
  /** The first retry's wait; each later one waits four times longer. */
  retryBaseMs?: number;
  /** Tries before an email is FAILED for good. */
  maxAttempts?: number;
}

export interface DrainResult {
  sent: number;
  retried: number;
  failed: number;
  cancelled: number;
  unsent: number;
  /** Not sent: the address is on the suppression list (counted once a drain has met one). */
  suppressed?: number;
  /** Not tried yet: past EMAIL_MAX_PER_MINUTE, back in the queue for the next minute. */
  paced?: number;
}

/** The mail server's answer, kept short for the delivery log (never the message, which holds a link). */
function serverMessage(error: unknown): string {
  const e = error as { response?: unknown; message?: unknown; code?: unknown };
  const text = typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 500) || 'The mail server did not take the message.';
}

/** A 5xx answer is the server's final word; anything else (4xx, no connection, a timeout) may pass. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * Drains the outbox: claims rows whose turn has come, checks each is still due, makes the
 * message (with the participant's own freshly signed dashboard link) and hands it to the
 * mail server, recording every attempt. A failure the server calls temporary, or no
 * answer at all, is tried again later (backoff); a permanent one, or the last try, is
 * FAILED with the server's message. Without a mail server rows end UNSENT: the log shows
 * what would have gone.
 */
export function createEmailSender(deps: {
  outbox: EmailOutboxRepository;
  mailer: Mailer;
  clock: Clock;
  timeZone: string;
  publicUrl: string;
  support: SupportContact;
  /** The participant's own dashboard link, signed now. */
  dashboardLink(userId: string, now: Date): Promise<string>;
  log?: { error(obj: unknown, msg: string): void };
  options?: SenderOptions;
  /** Records each message sent (or given up) in the audit trail, as the system, with its status. */
  audit?: SystemRecorder;
  /** A reminder's List-Unsubscribe fields (unsubscribe-links.ts), signed now; none for other emails. */
  unsubscribeHeaders?(work: OutboxWork, now: Date): Record<string, string> | undefined;
  /** EMAIL_MAX_PER_MINUTE, counted by every process together (email-pace.ts); none: no pacing. */
  pace?: EmailPace;
  /** The domain of each email's own return path (VERP, `BOUNCE_DOMAIN`), where its bounces come back. */
  bounceDomain?: string;
}) {
  /** Ends a claim as SENT or FAILED with its event (none when the claim was no longer this process's). */
  function ended(work: OutboxWork, status: 'SENT' | 'FAILED', end: () => Promise<boolean>): Promise<boolean> {
    if (!deps.audit) return end();
    return deps.audit.system('scheduler.send', end, (held) =>
      held
        ? {
            target: { type: 'email', id: work.id },
            projectId: work.projectId,
            clientId: work.clientId,
            changes: {
              status: { before: 'SENDING', after: status },
              email_type: { before: null, after: work.template.type },
              to: { before: null, after: work.toAddress },
            },
          }
        : null,
    );
  }
  const concurrency = deps.options?.concurrency ?? SEND_CONCURRENCY;
  // Claimed rows wait in this process while others are sent: a small batch keeps the time a
  // claim must hold (its lease) close to one message's.
  const batchSize = deps.options?.batchSize ?? concurrency * 2;
  const leaseMs = deps.options?.leaseMs ?? 120_000;
  const retryBaseMs = deps.options?.retryBaseMs ?? 30_000;
  const maxAttempts = deps.options?.maxAttempts ?? 5;
  const messageDomain = new URL(deps.publicUrl).hostname || 'localhost';

  /** Why a claimed email is no longer to be sent, or null. */
  function cancelReason(work: OutboxWork, today: string): string | null {
    if (work.kind === 'TEST') return null;
    if (work.projectArchived) return 'The project is archived.';
    if (!work.participant) return 'The participant no longer takes part in the project.';
    if (work.participant.archived) return 'The participant is archived.';
    // A disabled email is not sent, whether the schedule or an administrator queued it.
    if (!work.template.enabled) return 'The email was disabled before it was sent.';
    const certificateEmail = isCertificateEmail(work.template.type);
    if (certificateEmail && work.certificate?.revoked) return 'The certificate was revoked before the email went.';
    if (work.kind !== 'SCHEDULED') return null;
    if (work.template.sendMode !== 'AUTOMATIC') return 'The email was set to be sent by hand before it went.';
    if (certificateEmail) {
      if (!work.certificate) return 'The certificate no longer exists.';
      return daysBetween(work.ruleDay, today) > CERTIFICATE_EMAIL_LATE_DAYS
        ? `It was more than ${CERTIFICATE_EMAIL_LATE_DAYS} days late (issued ${work.ruleDay}).`
        : null;
    }
    if (daysBetween(work.ruleDay, today) > 1) return `Its day (${work.ruleDay}) had passed when it could be sent.`;
    if (finishingRules.includes(work.template.type) && work.casesInRound - work.completedInRound <= 0) {
      return work.casesInRound === 0
        ? `Round ${work.roundNumber} has no published case.`
        : `The participant had finished the cases of round ${work.roundNumber}.`;
    }
    if (summaryRules.includes(work.template.type) && !work.summaryPosted) {
      return 'The results summary was taken down before it went.';
    }
    return null;
  }

  async function message(work: OutboxWork, now: Date) {
    const person = work.participant ?? sampleParticipant;
    const link =
      work.kind === 'TEST' || !work.userId
        ? `${deps.publicUrl}/participant`
        : await deps.dashboardLink(work.userId, now);
    const values: PlaceholderValues = {
      first_name: person.firstName,
      last_name: person.lastName,
      salutation: person.salutation ?? '',
      dashboard_link: link,
      project_name: work.projectName,
      season_name: work.seasonName ?? '',
      round_number: work.roundNumber === null ? '' : String(work.roundNumber),
      round_end_date: work.roundEndDate ? longDate(work.roundEndDate) : '',
      // The project's support contact, else its client's, else the server's (read with the row).
      ...effectiveSupport(work.support, deps.support),
      // Only the Certificate Email names a certificate: its own, or a test's sample one.
      ...certificateValues(
        deps.publicUrl,
        !isCertificateEmail(work.template.type) ? null : work.kind === 'TEST' ? sampleCertificate : work.certificate,
      ),
    };
    return renderEmail(work.template, values, link);
  }

  /** Until when the minute's pace is used up: nothing more is claimed before then. */
  let pacedUntil: Date | null = null;

  async function deliver(work: OutboxWork, claimedAt: Date, result: DrainResult): Promise<void> {
    const now = deps.clock.now();
    const suppressed = suppressionReason(work);
    if (suppressed) {
      await deps.outbox.markNotSent(work.id, claimedAt, 'SUPPRESSED', suppressed);
      result.suppressed = (result.suppressed ?? 0) + 1;
      return;
    }
    const reason = cancelReason(work, dayIn(deps.timeZone, now));
    if (reason) {
      await deps.outbox.markNotSent(work.id, claimedAt, 'CANCELLED', reason);
      result.cancelled += 1;
      return;
    }
    if (deps.mailer.configured === false) {
      await deps.outbox.markNotSent(work.id, claimedAt, 'UNSENT', 'Not sent: no mail server is configured (SMTP_URL).');
      result.unsent += 1;
      return;
    }
    // Past the minute's pace (taken by this process or others): back in the queue for the next
    // minute, not tried, so it can never fail for it.
    if (deps.pace && ((pacedUntil && now < pacedUntil) || !(await deps.pace.take(now)))) {
      pacedUntil = deps.pace.nextMinute(now);
      await deps.pace.defer(work.id, claimedAt, pacedUntil);
      result.paced = (result.paced ?? 0) + 1;
      return;
    }
    try {
      const rendered = await message(work, now);
      await deps.mailer.send({
        to: work.toAddress,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        // The same id on every try, so a receiver can tell a repeat (see docs: emails).
        messageId: `<${work.id}@${messageDomain}>`,
        headers: deps.unsubscribeHeaders?.(work, now),
        // Its own return path, so a bounce names this very email (see docs: emails).
        envelopeFrom: verpAddress(work.id, deps.bounceDomain ?? messageDomain),
      });
      await ended(work, 'SENT', () => deps.outbox.markSent(work.id, claimedAt, deps.clock.now()));
      result.sent += 1;
    } catch (error) {
      const text = serverMessage(error);
      const at = deps.clock.now();
      // This try is counted when it is recorded: it is the row's attempts + 1.
      const attempt = work.attempts + 1;
      if (isPermanent(error) || attempt >= maxAttempts) {
        await ended(work, 'FAILED', () => deps.outbox.markFailed(work.id, claimedAt, at, text));
        result.failed += 1;
      } else {
        const wait = retryDelayMs(attempt, retryBaseMs);
        await deps.outbox.markRetry(work.id, claimedAt, at, new Date(at.getTime() + wait), text);
        result.retried += 1;
      }
    }
  }

  return {
    /** Sends everything whose turn has come, batch by batch, until none is left; answers what happened. */
    async drain(): Promise<DrainResult> {
      const result: DrainResult = { sent: 0, retried: 0, failed: 0, cancelled: 0, unsent: 0, suppressed: 0 };
      for (;;) {
        const now = deps.clock.now();
        if (pacedUntil && now < pacedUntil) return result;
        const claimed = await deps.outbox.claim(now, new Date(now.getTime() + leaseMs), batchSize);
        if (!claimed.length) return result;
        const claims = new Map(claimed.map((c) => [c.id, c.claimedAt]));
        const queue = await deps.outbox.work([...claims.keys()]);
        const workers = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
          for (let work = queue.shift(); work; work = queue.shift()) {
            await deliver(work, claims.get(work.id)!, result).catch((error: unknown) =>
              // The row stays SENDING; its lease runs out and a later drain takes it again.
              deps.log?.error({ err: error, outboxId: work.id }, 'email delivery could not be recorded'),
            );
          }
        });
        await Promise.all(workers);
      }
    },
  };
}

export type EmailSender = ReturnType<typeof createEmailSender>;
