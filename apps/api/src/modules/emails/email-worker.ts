import type { EmailScheduler } from './email-scheduler.js';
import type { EmailSender } from './email-sender.js';

export interface EmailWorkerOptions {
  /** How often the schedule runs (SCHEDULER_INTERVAL_SECONDS). */
  schedulerIntervalMs: number;
  /** How often the outbox is looked at for retries whose time has come. */
  senderPollMs?: number;
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
      wakeSender = send;
      schedule();
      send();
      return async () => {
        stopped = true;
        wakeSender = null;
        clearTimeout(scheduleTimer);
        clearTimeout(sendTimer);
        await scheduling;
        while (draining) await sending;
      };
    },
  };
}

export type EmailWorker = ReturnType<typeof createEmailWorker>;
