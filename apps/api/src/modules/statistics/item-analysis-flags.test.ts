import { describe, expect, it } from 'vitest';
import { isNegativeDiscrimination, negativeDiscriminationLimit, negativeDiscriminationRule } from '@pss/contract';
import { questionFlags } from './item-analysis.js';
import type { QuestionFiguresRow } from './item-analysis.repository.js';

/**
 * Issue #48: negative discrimination is flagged only where the evidence holds — from 20
 * completed attempts, and r two standard errors below 0, SE = √((1 − r²) / (N − 2)).
 */
const se = (r: number, n: number) => Math.sqrt((1 - r * r) / (n - 2));

const figures = (attempts: number, discrimination: number | null): QuestionFiguresRow => ({
  case_id: 'c',
  family_id: 'c',
  case_name: 'Case',
  round_number: 1,
  question_id: 'q',
  position: 1,
  question_text: 'Q',
  attempts,
  full_marks: Math.round(attempts / 2),
  discrimination,
});
const flagsOf = (attempts: number, r: number | null) => questionFlags(figures(attempts, r), 0.5);

describe('the negative discrimination flag', () => {
  it('is the test r + 2·SE ≤ 0, which is r ≤ −2/√(N + 2)', () => {
    for (const n of [20, 21, 30, 57, 100, 1000]) {
      const limit = negativeDiscriminationLimit(n)!;
      expect(limit).toBeCloseTo(-2 / Math.sqrt(n + 2), 12);
      // On the boundary r is exactly two standard errors below 0.
      expect(limit + 2 * se(limit, n)).toBeCloseTo(0, 12);
      expect(isNegativeDiscrimination(limit, n)).toBe(true);
      expect(isNegativeDiscrimination(limit - 0.001, n)).toBe(true);
      expect(isNegativeDiscrimination(limit + 0.001, n)).toBe(false);
      expect(limit + 0.001 + 2 * se(limit + 0.001, n)).toBeGreaterThan(0);
    }
    expect(negativeDiscriminationLimit(20)).toBeCloseTo(-0.426, 3);
    expect(negativeDiscriminationLimit(30)).toBeCloseTo(-0.354, 3);
    expect(negativeDiscriminationLimit(100)).toBeCloseTo(-0.198, 3);
  });

  it('needs 20 completed attempts, whatever r is', () => {
    expect(negativeDiscriminationRule.minimumAttempts).toBe(20);
    expect(negativeDiscriminationLimit(19)).toBeNull();
    expect(isNegativeDiscrimination(-1, 19)).toBe(false);
    expect(isNegativeDiscrimination(-0.9, 5)).toBe(false);
    expect(isNegativeDiscrimination(-1, 20)).toBe(true);
  });

  it('is raised by the item analysis only where the evidence holds', () => {
    // The example: r = −0.02 at N = 20, where SE ≈ 0.22, is noise.
    expect(se(-0.02, 20)).toBeCloseTo(0.236, 3);
    expect(flagsOf(20, -0.02)).toEqual([]);
    expect(flagsOf(20, -0.42)).toEqual([]);
    expect(flagsOf(20, -0.43)).toEqual(['NEGATIVE_DISCRIMINATION']);
    expect(flagsOf(30, -0.35)).toEqual([]);
    expect(flagsOf(30, -0.36)).toEqual(['NEGATIVE_DISCRIMINATION']);
    expect(flagsOf(100, -0.19)).toEqual([]);
    expect(flagsOf(100, -0.2)).toEqual(['NEGATIVE_DISCRIMINATION']);
    expect(flagsOf(19, -0.8)).toEqual([]);
    // No variance, no discrimination: nothing to flag; a positive one never is.
    expect(flagsOf(200, null)).toEqual([]);
    expect(flagsOf(200, 0.5)).toEqual([]);
    // With the other flags of a question.
    expect(questionFlags(figures(40, -0.5), 0.02)).toEqual(['ALMOST_ALL_WRONG', 'NEGATIVE_DISCRIMINATION']);
  });
});
