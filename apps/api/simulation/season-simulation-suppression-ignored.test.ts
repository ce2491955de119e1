import { describe, expect, it, vi } from 'vitest';
import { defaultOptions } from './season-plan.js';
import { simulateSeason } from './season-simulation.js';

/**
 * `nothing_to_suppressed` must catch a sender that ignores the suppression list, not only
 * pass one that keeps it. Here the sender's look at the list (`suppressionReason`) finds
 * nothing: the bounced address is put on the list, yet its reminders still go. The run must
 * fail, naming that invariant and only it.
 */
vi.mock('../src/modules/emails/email-suppression-check.js', () => ({ suppressionReason: () => null }));

describe('the season simulator against a sender that ignores suppressions', () => {
  it('fails with nothing_to_suppressed when mail still goes to a bounced address', { timeout: 180_000 }, async () => {
    const pgUrl = process.env.TEST_DATABASE_URL;
    // Twenty participants: one address bounces; one short round gives it reminders after.
    const run = await simulateSeason({ ...defaultOptions, participants: 20, rounds: 1, roundDays: 6, seed: 11, pgUrl });
    expect(run.result.suppressed).toBe(1);
    expect(run.result.invariants_failed).toEqual(['nothing_to_suppressed']);
    const examples = run.details.nothing_to_suppressed!.examples.join('\n');
    // Seen at the SMTP server, and in the app's outbox (rows SENT after the suppression).
    expect(examples).toMatch(/reminder to .*, suppressed since /);
    expect(run.details.nothing_to_suppressed!.count).toBeGreaterThan(1);
  });
});
