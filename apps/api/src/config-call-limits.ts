import { z } from 'zod';

/**
 * The limits on anonymous calls (modules/call-limits): how many calls of one kind a minute
 * one address may make, and every address together. Kept beside config.ts, which takes these
 * variables into its environment's schema.
 */
export const callLimitsEnv = {
  // Calls of one kind (a sign-in, a second factor's step, a certificate's check) a minute from one address.
  ANONYMOUS_CALLS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  // Calls of one kind a minute from every address together: what a crowd of addresses may write.
  ANONYMOUS_CALLS_PER_MINUTE_TOTAL: z.coerce.number().int().min(1).default(3000),
};

export interface CallLimitsConfig {
  anonymousCallsPerMinute: number;
  anonymousCallsPerMinuteTotal: number;
}

export function callLimitsConfig(e: {
  ANONYMOUS_CALLS_PER_MINUTE: number;
  ANONYMOUS_CALLS_PER_MINUTE_TOTAL: number;
}): CallLimitsConfig {
  return {
    anonymousCallsPerMinute: e.ANONYMOUS_CALLS_PER_MINUTE,
    anonymousCallsPerMinuteTotal: Math.max(e.ANONYMOUS_CALLS_PER_MINUTE_TOTAL, e.ANONYMOUS_CALLS_PER_MINUTE),
  };
}
