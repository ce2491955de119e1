import { describe, expect, it } from 'vitest';
import { scoreCase, scoreQuestion, type ScoringAnswer, type ScoringQuestion } from './scoring.js';

const q = (id: string, type: ScoringQuestion['type'], marks: string): ScoringQuestion => ({
  id,
  type,
  // "NAU" → choices id-1 NECESSARY, id-2 APPROPRIATE, id-3 UNNECESSARY
  choices: [...marks].map((m, i) => ({
    id: `${id}-${i + 1}`,
    markedAs: m === 'N' ? 'NECESSARY' : m === 'A' ? 'APPROPRIATE' : 'UNNECESSARY',
  })),
});
const answers = (entries: Record<string, ScoringAnswer>) => new Map(Object.entries(entries));

describe('scoring a case', () => {
  it('gives 100 for every necessary choice and nothing unnecessary, whatever the appropriate ones', () => {
    const questions = [q('a', 'MULTI_MANY', 'NNAU'), q('b', 'MULTI_ONE', 'NAU')];
    const result = scoreCase(
      questions,
      answers({ a: { choiceIds: ['a-1', 'a-2', 'a-3'] }, b: { choiceIds: ['b-1'] } }),
    );
    expect(result).toMatchObject({ score: 100, necessaryAvailable: 3, necessarySelected: 3, unnecessarySelected: 0 });
  });

  it('takes one necessary point off for each unnecessary choice', () => {
    // 4 necessary available; 3 found, 1 unnecessary chosen: 100 × (3 − 1) ÷ 4 = 50.
    const questions = [q('a', 'MULTI_MANY', 'NNNU'), q('b', 'DROPDOWN', 'NU')];
    const result = scoreCase(
      questions,
      answers({ a: { choiceIds: ['a-1', 'a-2', 'a-4'] }, b: { choiceIds: ['b-1'] } }),
    );
    expect(result.score).toBe(50);
    expect(result.questions).toEqual([
      {
        questionId: 'a',
        necessaryAvailable: 3,
        necessarySelected: 2,
        unnecessarySelected: 1,
        necessaryMissed: ['a-3'],
        unnecessaryChosen: ['a-4'],
      },
      {
        questionId: 'b',
        necessaryAvailable: 1,
        necessarySelected: 1,
        unnecessarySelected: 0,
        necessaryMissed: [],
        unnecessaryChosen: [],
      },
    ]);
  });

  it('never goes below 0', () => {
    const result = scoreCase([q('a', 'MULTI_MANY', 'NUUU')], answers({ a: { choiceIds: ['a-2', 'a-3', 'a-4'] } }));
    expect(result).toMatchObject({ score: 0, necessarySelected: 0, unnecessarySelected: 3 });
  });

  it('rounds to a whole number', () => {
    const result = scoreCase([q('a', 'MULTI_MANY', 'NNN')], answers({ a: { choiceIds: ['a-1'] } }));
    expect(result.score).toBe(33);
  });

  it('does not score free-text questions', () => {
    const questions = [q('t', 'TEXT', ''), q('y', 'TYPE_AHEAD', 'NU'), q('a', 'MULTI_ONE', 'NU')];
    const result = scoreCase(questions, answers({ a: { choiceIds: ['a-1'] } }));
    expect(result.score).toBe(100);
    expect(result.questions.map((r) => r.questionId)).toEqual(['a']);
  });

  it('counts an unanswered question as every necessary choice missed', () => {
    const result = scoreCase(
      [q('a', 'MULTI_MANY', 'NN'), q('b', 'MULTI_ONE', 'NU')],
      answers({ a: { choiceIds: ['a-1', 'a-2'] } }),
    );
    expect(result.score).toBe(67);
    expect(result.questions[1]!.necessaryMissed).toEqual(['b-1']);
  });

  describe('"none of the below"', () => {
    it('is right where a question has no necessary choice', () => {
      const result = scoreCase(
        [q('a', 'MULTI_MANY', 'NN'), q('b', 'MULTI_MANY', 'AUU')],
        answers({ a: { choiceIds: ['a-1', 'a-2'] }, b: { noneOfTheBelow: true } }),
      );
      expect(result.score).toBe(100);
    });

    it('misses every necessary choice where the question has some, even with choices sent beside it', () => {
      const result = scoreQuestion(q('a', 'MULTI_MANY', 'NNU'), { noneOfTheBelow: true, choiceIds: ['a-1'] });
      expect(result).toMatchObject({ necessarySelected: 0, necessaryMissed: ['a-1', 'a-2'], unnecessaryChosen: [] });
    });
  });

  describe('a case with no necessary choice', () => {
    it('scores 100 when nothing unnecessary was chosen', () => {
      expect(scoreCase([q('a', 'MULTI_MANY', 'AAU')], answers({ a: { choiceIds: ['a-1'] } })).score).toBe(100);
    });

    it('scores 0 when something unnecessary was chosen', () => {
      expect(scoreCase([q('a', 'MULTI_MANY', 'AU')], answers({ a: { choiceIds: ['a-2'] } })).score).toBe(0);
    });

    it('scores 100 with no questions to score at all', () => {
      expect(scoreCase([q('t', 'TEXT', '')], answers({})).score).toBe(100);
    });
  });

  it('scores every choice unnecessary and chosen as 0, with each one listed', () => {
    const result = scoreCase([q('a', 'MULTI_MANY', 'UUU')], answers({ a: { choiceIds: ['a-1', 'a-2', 'a-3'] } }));
    expect(result.score).toBe(0);
    expect(result.questions[0]!.unnecessaryChosen).toEqual(['a-1', 'a-2', 'a-3']);
  });

  it('ignores choice ids that are not the question’s', () => {
    const result = scoreQuestion(q('a', 'MULTI_ONE', 'NU'), { choiceIds: ['b-1', 'a-1'] });
    expect(result).toMatchObject({ necessarySelected: 1, unnecessarySelected: 0 });
  });
});
