import type { EmailScheduler } from './email-scheduler.js';
import type { EmailSender } from './email-sender.js';

export interface EmailWorkerOptions {
  /** How often the schedule runs (SCHEDULER_INTERVAL_SECONDS). */
  schedulerIntervalMs: number;
  /** How often the outbox is looked at for retries whose time has come. */
  senderPollMs?: number;
  /** How often the bounce mailbox is read (BOUNCE_IMAP_POLL_SECONDS), when there is one. */
  bouncePollMs?: number;
}

/**
 * The background side of emails in a server process: the schedule every interval, and the
 * sender whenever something is queued (it is woken) or a retry comes due (it polls). Any
 * number of processes may run one each: the outbox's keys and claims keep every email to
 * one message.
 */
export function createEmailWorker(deps: {
  scheduler: Pick<EmailScheduler, 'run'>;
  sender: Pick<EmailSender, 'drain'>;
  /** The bounce mailbox (BOUNCE_IMAP_URL), read on its own interval; its poll never throws. */
  bounces?: { poll(): Promise<unknown> };
  log?: { error(obj: unknown, msg: string): void };
}) {
  let wakeSender: (() => void) | null = null;
  return {
    /** Sends what was just queued without waiting for the next poll (a no-op while stopped). */
    wake(): void {
      wakeSender?.();
    },

    /** Starts the schedule and the sender; answers a function that stops both and waits for them. */
    start(options: EmailWorkerOptions): () => Promise<void> {
      let stopped = false;
      let scheduling: Promise<unknown> = Promise.resolve();
      let sending: Promise<unknown> = Promise.resolve();
      let draining = false;
      let drainAgain = false;
      let scheduleTimer: NodeJS.Timeout | undefined;
      let sendTimer: NodeJS.Timeout | undefined;
      let reading: Promise<unknown> = Promise.resolve();
      let readTimer: NodeJS.Timeout | undefined;

      const send = () => {
        if (stopped) return;
        // Woken while draining: drain once more when this one ends, not at the next poll.
        if (draining) {
          drainAgain = true;
          return;
        }
        clearTimeout(sendTimer);
        draining = true;
        sending = deps.sender
          .drain()
          .catch((error: unknown) => deps.log?.error({ err: error }, 'email sending failed'))
          .finally(() => {
            draining = false;
            if (stopped) return;
            if (drainAgain) {
              drainAgain = false;
              send();
            } else {
              sendTimer = setTimeout(send, options.senderPollMs ?? 5000);
            }
          });
      };
      const schedule = () => {
        if (stopped) return;
        scheduling = deps.scheduler
          .run()
          .then(() => send())
          .catch((error: unknown) => deps.log?.error({ err: error }, 'email schedule failed'))
          .finally(() => {
            if (!stopped) scheduleTimer = setTimeout(schedule, options.schedulerIntervalMs);
          });
      };
      // One poll at a time, the next an interval after this one ends (a slow mailbox is not piled on).
      const readBounces = () => {
        if (stopped || !deps.bounces) return;
        reading = deps.bounces
          .poll()
          .catch((error: unknown) => deps.log?.error({ err: error }, 'bounce mailbox failed'))
          .finally(() => {
            if (!stopped) readTimer = setTimeout(readBounces, options.bouncePollMs ?? 30_000);
          });
      };
      wakeSender = send;
      schedule();
      send();
      readBounces();
      return async () => {
        stopped = true;
        wakeSender = null;
        clearTimeout(scheduleTimer);
        clearTimeout(sendTimer);
        clearTimeout(readTimer);
        await scheduling;
        await reading;
        while (draining) await sending;
      };
    },
  };
}

export type EmailWorker = ReturnType<typeof createEmailWorker>;
