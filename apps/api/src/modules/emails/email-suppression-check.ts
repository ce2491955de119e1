import type { EmailTypeValue } from '@pss/contract';
import type { OutboxWork } from './email-outbox-work.js';

/**
 * The emails an unsubscribe from one project's reminders stops: the reminders of a round, its
 * last day, the last round's last day, a new round, and the summary's reminder (the contract's
 * `reminderEmailTypes`). Launches, certificates and links asked for still go.
 */
const projectReminderTypes: readonly EmailTypeValue[] = [
  'reminder',
  'last_day_of_round',
  'last_round',
  'new_round',
  'summary_reminder',
];

/**
 * Why a claimed email must not go to its address, or null: the address is suppressed (a
 * bounce, a complaint, an administrator: everything stops, test sends included), or it
 * unsubscribed from this project's reminders and this is one. The sender marks the row
 * SUPPRESSED with this reason, and nothing reaches the mail server.
 */
export function suppressionReason(work: Pick<OutboxWork, 'suppressed' | 'template'>): string | null {
  const { addressReason, unsubscribedFromProject } = work.suppressed;
  if (addressReason) return `Suppressed: the address is on the suppression list (${addressReason}).`;
  if (unsubscribedFromProject && projectReminderTypes.includes(work.template.type)) {
    return 'Suppressed: the participant unsubscribed from this project’s reminders.';
  }
  return null;
}
