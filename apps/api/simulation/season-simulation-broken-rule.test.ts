import { describe, expect, it, vi } from 'vitest';
import type * as EmailRules from '../src/modules/emails/email-rules.js';
import { defaultOptions } from './season-plan.js';
import { simulateSeason } from './season-simulation.js';

/**
 * The simulator must catch a broken schedule, not only pass a sound one. Here the rule
 * "stop reminding once the round's cases are done" is switched off where it lives: the
 * rules work reminders out as if the participant had completed nothing, and the sender's
 * last look before sending (`finishingRules`) no longer holds reminders back. The run must
 * fail, naming the invariant.
 */
vi.mock('../src/modules/emails/email-rules.js', async (importOriginal) => {
  const rules = await importOriginal<typeof EmailRules>();
  const remindsRegardless: typeof rules.emailsDue = (day, season, participant) => [
    ...rules.emailsDue(day, season, participant).filter((e) => e.type !== 'reminder'),
    ...rules.emailsDue(day, season, { ...participant, completedInRound: 0 }).filter((e) => e.type === 'reminder'),
  ];
  return {
    ...rules,
    emailsDue: remindsRegardless,
    finishingRules: rules.finishingRules.filter((type) => type !== 'reminder'),
  };
});

describe('the season simulator against a broken rule', () => {
  it('fails with no_email_after_completion when reminders go on after completion', { timeout: 120_000 }, async () => {
    const pgUrl = process.env.TEST_DATABASE_URL;
    const run = await simulateSeason({ ...defaultOptions, participants: 10, rounds: 2, roundDays: 8, seed: 11, pgUrl });
    expect(run.result.invariants_failed).toContain('no_email_after_completion');
    expect(run.result.sent_after_completion).toBeGreaterThan(0);
    expect(run.details.no_email_after_completion!.examples[0]).toMatch(/reminder to .* who had completed round \d/);
    // Only the broken rule shows: the figures and reports still match what the clinicians did.
    expect(run.result.statistics_match).toBe(true);
    expect(run.result.reports_match).toBe(true);
    expect(run.result.invariants_failed).toEqual(['no_email_after_completion']);
  });
});
