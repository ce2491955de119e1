import { isReminderEmail } from '@pss/contract';
import type { OutboxWork } from './email-outbox-work.js';

/**
 * Why a claimed email must not go to its address, or null: the address is suppressed (a
 * bounce, a complaint, an administrator: everything stops, test sends included), or it
 * unsubscribed from this project's reminders (the contract's `reminderEmailTypes`) and this is
 * one. The sender marks the row SUPPRESSED with this reason, and nothing reaches the mail
 * server.
 */
export function suppressionReason(work: Pick<OutboxWork, 'suppressed' | 'template'>): string | null {
  const { addressReason, unsubscribedFromProject } = work.suppressed;
  if (addressReason) return `Suppressed: the address is on the suppression list (${addressReason}).`;
  if (unsubscribedFromProject && isReminderEmail(work.template.type)) {
    return 'Suppressed: the participant unsubscribed from this project’s reminders.';
  }
  return null;
}
