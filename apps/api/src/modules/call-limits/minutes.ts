/** The limits and the anonymous events are counted per minute of the app's clock. */
export const MINUTE_MS = 60_000;

/** The start of the minute `at` falls in. */
export function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}
