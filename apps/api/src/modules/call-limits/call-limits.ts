import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { createAnonymousEvents } from './anonymous-events.service.js';
import { createCallLimitsRepository } from './call-limits.repository.js';
import { MINUTE_MS, minuteOf } from './minutes.js';

/** How often each process sums up the anonymous events of the minutes that are over, and sweeps old counts. */
const SWEEP_EVERY_MS = MINUTE_MS;

export interface CallLimitSettings {
  /** Calls of one kind a minute from one address (ANONYMOUS_CALLS_PER_MINUTE). */
  anonymousCallsPerMinute: number;
  /** Calls of one kind a minute from every address together (ANONYMOUS_CALLS_PER_MINUTE_TOTAL). */
  anonymousCallsPerMinuteTotal: number;
}

/**
 * Limits anonymous calls in the database, so that every process counts against the same
 * limit: each kind of call (its route's name) a minute per address, and a minute from every
 * address together, which bounds what a crowd of addresses can make the app write. Counted
 * per minute of the app's clock (a caller may get up to twice the limit across the turn of a
 * minute). The address is counted first: an address past its limit is refused without
 * spending the others' room.
 */
export function createCallLimits(deps: { db: Db; clock: Clock; settings: CallLimitSettings }) {
  const counts = createCallLimitsRepository(deps.db);
  const { anonymousCallsPerMinute: perAddress, anonymousCallsPerMinuteTotal: total } = deps.settings;

  return {
    settings: deps.settings,

    /** Counts a call of `name` from `address`; 429 TOO_MANY_REQUESTS (Retry-After: the minute's end) past a limit. */
    async take(name: string, address: string): Promise<void> {
      const now = deps.clock.now();
      const minute = minuteOf(now);
      const counted =
        (await counts.countCall(`${name} from ${address}`, minute, perAddress)) &&
        (await counts.countCall(name, minute, total));
      if (!counted) {
        const left = Math.max(1, Math.ceil((minute.getTime() + MINUTE_MS - now.getTime()) / 1000));
        throw new AppError('TOO_MANY_REQUESTS', { details: { retry_after_seconds: left } });
      }
    },

    /** Removes the counts of minutes that are over. */
    async sweep(): Promise<void> {
      await counts.pruneCalls(minuteOf(deps.clock.now()));
    },
  };
}

export type CallLimits = ReturnType<typeof createCallLimits>;

/**
 * Makes the app's call limits (app.ts hands them to `contractRoutes`, which applies them to
 * every limited call) and sweeps every minute: the call counts of minutes that are over, and the
 * summaries of the anonymous events those minutes owe the audit trail.
 */
export function registerCallLimits(
  app: FastifyInstance,
  deps: {
    db: Db;
    clock: Clock;
    settings: CallLimitSettings;
    /** Told when summaries were written, so that they are sealed soon. */
    written(): void;
  },
): CallLimits {
  const limits = createCallLimits(deps);
  const events = createAnonymousEvents({ db: deps.db, clock: deps.clock, written: deps.written });
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => limits.sweep())
      .then(() => events.sweep(deps.clock.now()))
      .then(
        () => undefined,
        (error: unknown) => app.log.error({ err: error }, 'call limits: the sweep failed (tried again in a minute)'),
      );
  }, SWEEP_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
  return limits;
}
