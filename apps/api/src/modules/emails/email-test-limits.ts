import { AppError } from '../../lib/errors.js';
import type { CountedSend, EmailTestSendsRepository, TestSendRecord } from './email-test-sends.repository.js';

/** Test emails a person, and a project, may send within an hour (config: TEST_EMAILS_PER_*_PER_HOUR). */
export interface TestEmailLimits {
  perPersonPerHour: number;
  perProjectPerHour: number;
}

const HOUR_MS = 3_600_000;

/**
 * How long until `requested` more emails fit under `limit` in the hour before, given that
 * hour's sends oldest first: 0 when they fit now, otherwise the seconds until enough of the
 * oldest have left the hour.
 */
export function secondsUntilFits(sends: CountedSend[], requested: number, limit: number, now: Date): number {
  let used = sends.reduce((n, s) => n + s.count, 0);
  if (used + requested <= limit) return 0;
  for (const send of sends) {
    used -= send.count;
    if (used + requested <= limit) {
      return Math.max(1, Math.ceil((send.sentAt.getTime() + HOUR_MS - now.getTime()) / 1000));
    }
  }
  // More than the limit in one send (the configuration keeps the limit at a whole send or more).
  return HOUR_MS / 1000;
}

/**
 * Lets a test send through, or refuses it with TEST_EMAIL_LIMIT_REACHED (429, Retry-After):
 * in the caller's transaction, under the sender's and the project's locks, it counts the
 * emails each sent in the last hour and, when both have room, records the send. The count
 * and the record are one transaction with the queuing, in every process alike.
 */
export async function admitTestSend(
  sends: EmailTestSendsRepository,
  limits: TestEmailLimits,
  send: TestSendRecord,
): Promise<void> {
  const sender = { sender: send.senderId };
  const project = { project: send.projectId };
  await sends.lock([sender, project]);
  const since = new Date(send.sentAt.getTime() - HOUR_MS);
  const requested = send.recipients.length;
  const checks = [
    { scope: 'person', limit: limits.perPersonPerHour, sent: await sends.sentSince(sender, since) },
    { scope: 'project', limit: limits.perProjectPerHour, sent: await sends.sentSince(project, since) },
  ] as const;
  for (const { scope, limit, sent } of checks) {
    const wait = secondsUntilFits(sent, requested, limit, send.sentAt);
    if (!wait) continue;
    const minutes = Math.ceil(wait / 60);
    const who = scope === 'person' ? 'one person' : 'one project';
    throw new AppError('TEST_EMAIL_LIMIT_REACHED', {
      message:
        `At most ${limit} test emails an hour may be sent by ${who}, and ${requested} more would pass it. ` +
        `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      details: { scope, limit, retry_after_seconds: wait },
    });
  }
  await sends.record(send);
}
