import type { CaseQuestions, FoundAttempt } from './attempts.repository.js';

/**
 * What the answer route remembers between answers, so that an answer is checked and saved
 * in one statement instead of reading the attempt and its case's questions first: each
 * attempt's case (it never changes), and each case's questions with the version of the
 * case's row they were read from. Nothing here is trusted for a rule: the write compares
 * the remembered owner, case and version with the rows it writes under, and anything that
 * changed sends the answer down the full path, which reads afresh and remembers again.
 *
 * Both maps are bounded: past `limit` entries the oldest is forgotten (and read again if
 * needed), so memory stays flat however many attempts a process serves.
 */
export class CheckedCases {
  private readonly attempts = new Map<string, { userId: string; caseId: string }>();
  private readonly cases = new Map<string, { version: string; questions: CaseQuestions }>();

  constructor(private readonly limit = 20_000) {}

  /** The attempt's owner, case, and that case's questions and version, if all are remembered. */
  lookUp(attemptId: string) {
    const attempt = this.attempts.get(attemptId);
    const found = attempt && this.cases.get(attempt.caseId);
    return attempt && found ? { ...attempt, ...found } : undefined;
  }

  remember(row: FoundAttempt): void {
    put(this.attempts, row.id, { userId: row.userId, caseId: row.caseId }, this.limit);
    put(this.cases, row.caseId, { version: row.caseVersion, questions: row.questions }, this.limit);
  }
}

function put<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
  map.delete(key); // re-inserted last, so the oldest is the first key
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value!);
}
