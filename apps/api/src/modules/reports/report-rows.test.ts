import { describe, expect, it } from 'vitest';
import type { CaseBody } from '../../db/schema/index.js';
import { answerBreakdown, averageScore, percent, progressOf, roundProgressLabel, roundsText } from './report-rows.js';

const attempt = (status: 'NOT_STARTED' | 'STARTED' | 'IN_PROGRESS' | 'COMPLETE', unlocksOn = '2026-03-01') => ({
  status,
  unlocksOn,
});

describe('progress', () => {
  it('is complete only with cases, all complete; in progress once one is begun', () => {
    expect(progressOf([])).toBe('NOT_STARTED');
    expect(progressOf([attempt('NOT_STARTED')])).toBe('NOT_STARTED');
    expect(progressOf([attempt('STARTED'), attempt('NOT_STARTED')])).toBe('IN_PROGRESS');
    expect(progressOf([attempt('COMPLETE'), attempt('NOT_STARTED')])).toBe('IN_PROGRESS');
    expect(progressOf([attempt('COMPLETE'), attempt('COMPLETE')])).toBe('COMPLETE');
  });

  it('says in words how a round stands', () => {
    const today = '2026-03-20';
    expect(roundProgressLabel(false, [attempt('COMPLETE')], today)).toBe('Not assigned');
    expect(roundProgressLabel(true, [], today)).toBe('No cases');
    expect(roundProgressLabel(true, [attempt('NOT_STARTED', '2026-03-29')], today)).toBe('Not open yet');
    expect(roundProgressLabel(true, [attempt('NOT_STARTED', '2026-03-20')], today)).toBe('Not started');
    expect(roundProgressLabel(true, [attempt('IN_PROGRESS'), attempt('NOT_STARTED')], today)).toBe('In progress');
    expect(roundProgressLabel(true, [attempt('COMPLETE')], today)).toBe('Complete');
  });
});

describe('figures', () => {
  it('averages and divides to one decimal, and leaves out what cannot be', () => {
    expect(averageScore([100, 50, null, 100])).toBe(83.3);
    expect(averageScore([null])).toBeNull();
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(0, 0)).toBeNull();
    expect(roundsText(2, 2)).toBe('2');
    expect(roundsText(1, 4)).toBe('1-4');
  });
});

describe('under- and over-use', () => {
  const choice = (id: string, marked_as: 'NECESSARY' | 'APPROPRIATE' | 'UNNECESSARY' | null) => ({
    id,
    text: id,
    marked_as,
  });
  const question = (
    id: string,
    type: CaseBody['questions'][number]['type'],
    category: string | null,
    choices = [],
  ) => ({
    id,
    grouper_id: null,
    type,
    text: id,
    text_before: '',
    required: true,
    category_id: category,
    choices,
    allow_other: false,
    allow_none_of_below: true,
  });
  const body: CaseBody = {
    details_sections: [],
    groupers: [],
    questions: [
      {
        ...question('q1', 'MULTI_MANY', 'dx'),
        choices: [
          choice('n1', 'NECESSARY'),
          choice('n2', 'NECESSARY'),
          choice('a', 'APPROPRIATE'),
          choice('u', 'UNNECESSARY'),
        ],
      },
      { ...question('q2', 'MULTI_ONE', 'tx'), choices: [choice('n3', 'NECESSARY'), choice('u2', 'UNNECESSARY')] },
      { ...question('q3', 'DROPDOWN', null), choices: [choice('n4', 'NECESSARY'), choice('u3', 'UNNECESSARY')] },
      question('q4', 'TEXT', 'dx'),
    ],
  };
  const answer = (questionId: string, choiceIds: string[], noneOfBelow = false) => ({
    attemptId: 'a',
    questionId,
    choiceIds,
    noneOfBelow,
  });

  it('counts necessary choices missed and unnecessary ones chosen, per category, by the scoring rule', () => {
    const result = answerBreakdown(body, [
      answer('q1', ['n1', 'a', 'u']),
      answer('q2', [], true),
      answer('q3', ['u3']),
    ]);
    expect(result.necessaryMissed).toBe(3);
    expect(result.unnecessaryChosen).toBe(2);
    expect(result.byCategory.get('dx')).toEqual({
      necessaryAvailable: 2,
      necessaryMissed: 1,
      unnecessaryAvailable: 1,
      unnecessaryChosen: 1,
    });
    // "None of the below" chooses none of the listed choices.
    expect(result.byCategory.get('tx')).toEqual({
      necessaryAvailable: 1,
      necessaryMissed: 1,
      unnecessaryAvailable: 1,
      unnecessaryChosen: 0,
    });
    expect([...result.byCategory.keys()].sort()).toEqual(['dx', 'tx']);
  });

  it('counts an unanswered question as missing its necessary choices', () => {
    expect(answerBreakdown(body, []).necessaryMissed).toBe(4);
  });
});
