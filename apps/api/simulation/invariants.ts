/**
 * The invariants a season must keep, each with a name that says what broke. A failed check
 * keeps its first few examples, so the run's report shows where to look.
 */
export const invariantNames = [
  /** No email reminds anyone of a round (or a season) they had already completed when it was sent. */
  'no_email_after_completion',
  /** No email reaches the same person twice under one key (one initial, one reminder a day…). */
  'each_email_once',
  /** No email goes on a day its rule does not pick (nor of a type no rule sends). */
  'emails_only_on_rule_days',
  /** Every email the rules pick reaches its participant. */
  'every_scheduled_email_sent',
  /** Every answer the app acknowledged is stored, read back as it was given. */
  'answers_stored',
  /** The Progress Dashboard's figures and per-case completion equal what the clinicians did. */
  'statistics_match',
  /** The participants' progress and score reports equal what the clinicians did. */
  'reports_match',
  /** The summary's emails reach exactly those who completed the season. */
  'summary_to_completers',
  /**
   * Nothing reaches an address after it bounced (the provider reported it): no message at the
   * SMTP server, and every outbox row to it made after its suppression is SUPPRESSED.
   */
  'nothing_to_suppressed',
] as const;
export type InvariantName = (typeof invariantNames)[number];

const EXAMPLES_KEPT = 5;

export function invariantLedger() {
  const failures = new Map<InvariantName, { count: number; examples: string[] }>();
  return {
    fail(name: InvariantName, example: string): void {
      const entry = failures.get(name) ?? { count: 0, examples: [] };
      entry.count += 1;
      if (entry.examples.length < EXAMPLES_KEPT) entry.examples.push(example);
      failures.set(name, entry);
    },
    failed(name: InvariantName): boolean {
      return failures.has(name);
    },
    count(name: InvariantName): number {
      return failures.get(name)?.count ?? 0;
    },
    /** The names of the invariants that failed, in the list's order. */
    names(): InvariantName[] {
      return invariantNames.filter((n) => failures.has(n));
    },
    details(): Record<string, { count: number; examples: string[] }> {
      return Object.fromEntries(failures);
    },
  };
}

export type InvariantLedger = ReturnType<typeof invariantLedger>;
