import { describe, expect, it } from 'vitest';
import type { CaseQuestion } from '@pss/contract';
import {
  checkAnswers,
  feedbackFor,
  isAnswered,
  missingRequired,
  scoreAnswers,
  type StoredAnswer,
} from './case-answers.js';

// Short readable ids: these functions never check the uuid shape (the HTTP schema does).
const N = 'NECESSARY' as const;
const A = 'APPROPRIATE' as const;
const U = 'UNNECESSARY' as const;

function question(id: string, type: CaseQuestion['type'], overrides: Partial<CaseQuestion> = {}): CaseQuestion {
  return {
    id,
    grouper_id: null,
    type,
    text: `Question ${id}`,
    text_before: '',
    required: true,
    category_id: null,
    choices: [],
    allow_other: false,
    allow_none_of_below: false,
    ...overrides,
  };
}

/** Choices `q11`, `q12`… with texts `Q1 choice 1`…, marked in order. */
const choices = (id: string, ...marks: CaseQuestion['choices'][number]['marked_as'][]) =>
  marks.map((marked_as, i) => ({ id: `${id}${i + 1}`, text: `${id.toUpperCase()} choice ${i + 1}`, marked_as }));

/** q1 MULTI_ONE (N A U), q2 MULTI_MANY (N N A U, other, none), q3 TEXT (optional), q4 DROPDOWN (N U), q5 TYPE_AHEAD. */
const questions: CaseQuestion[] = [
  question('q1', 'MULTI_ONE', { choices: choices('q1', N, A, U), grouper_id: 'g1' }),
  question('q2', 'MULTI_MANY', { choices: choices('q2', N, N, A, U), allow_other: true, allow_none_of_below: true }),
  question('q3', 'TEXT', { required: false }),
  question('q4', 'DROPDOWN', { choices: choices('q4', N, U) }),
  question('q5', 'TYPE_AHEAD', { choices: choices('q5', null, null), required: false }),
];

const answer = (question_id: string, fields: Partial<StoredAnswer> = {}): StoredAnswer => ({
  question_id,
  choice_ids: [],
  text: null,
  none_of_below: false,
  ...fields,
});

describe('checkAnswers', () => {
  it('accepts good answers and cleans them (trimmed text, repeated choices once, defaults)', () => {
    const result = checkAnswers(questions, [
      { question_id: 'q1', choice_ids: ['q11'] },
      { question_id: 'q2', choice_ids: ['q21', 'q22', 'q21'], text: '  Lactate  ' },
      { question_id: 'q3', text: '   ' },
      { question_id: 'q4', choice_ids: ['q41'], text: null },
      { question_id: 'q5', choice_ids: ['q51'], text: 'Acute MI' },
    ]);
    expect(result.problems).toEqual([]);
    expect([...result.answers.values()]).toEqual([
      answer('q1', { choice_ids: ['q11'] }),
      answer('q2', { choice_ids: ['q21', 'q22'], text: 'Lactate' }),
      answer('q3'),
      answer('q4', { choice_ids: ['q41'] }),
      answer('q5', { choice_ids: ['q51'], text: 'Acute MI' }),
    ]);
  });

  it('accepts "none of the below" where offered', () => {
    const result = checkAnswers(questions, [{ question_id: 'q2', none_of_below: true }]);
    expect(result.problems).toEqual([]);
    expect(result.answers.get('q2')).toEqual(answer('q2', { none_of_below: true }));
  });

  it.each([
    ['an unknown question', [{ question_id: 'nope' }], 'answers.0.question_id'],
    [
      'a question answered twice',
      [
        { question_id: 'q1', choice_ids: ['q11'] },
        { question_id: 'q1', choice_ids: ['q12'] },
      ],
      'answers.1.question_id',
    ],
    ['a choice of another question', [{ question_id: 'q1', choice_ids: ['q21'] }], 'answers.0.choice_ids'],
    [
      'two choices on a single-answer question',
      [{ question_id: 'q1', choice_ids: ['q11', 'q12'] }],
      'answers.0.choice_ids',
    ],
    ['two choices on a dropdown', [{ question_id: 'q4', choice_ids: ['q41', 'q42'] }], 'answers.0.choice_ids'],
    [
      'a choice and "other" text on a single-answer question',
      [{ question_id: 'q1', choice_ids: ['q11'], text: 'Other' }],
      'answers.0.choice_ids',
    ],
    ['"none of the below" not offered', [{ question_id: 'q1', none_of_below: true }], 'answers.0.none_of_below'],
    [
      '"none of the below" with a choice',
      [{ question_id: 'q2', choice_ids: ['q21'], none_of_below: true }],
      'answers.0.none_of_below',
    ],
    ['"other" text not offered', [{ question_id: 'q4', text: 'Something' }], 'answers.0.text'],
    ['choices on a text question', [{ question_id: 'q3', choice_ids: ['q11'] }], 'answers.0.choice_ids'],
    ['"none of the below" on a text question', [{ question_id: 'q3', none_of_below: true }], 'answers.0.none_of_below'],
    ['"none of the below" on a type-ahead', [{ question_id: 'q5', none_of_below: true }], 'answers.0.none_of_below'],
  ])('refuses %s', (_label, answers, field) => {
    const { problems } = checkAnswers(questions, answers);
    expect(problems.map((p) => p.field)).toContain(field);
  });

  it('lists every problem, each at its own answer', () => {
    const { problems } = checkAnswers(questions, [
      { question_id: 'q1', choice_ids: ['q11', 'q12'] },
      { question_id: 'q4', text: 'x' },
    ]);
    expect(problems.map((p) => p.field)).toEqual(['answers.0.choice_ids', 'answers.1.text']);
  });
});

describe('missingRequired', () => {
  it('names each required question without an answer by its place in the case', () => {
    const answers = new Map([
      ['q1', answer('q1', { choice_ids: ['q11'] })],
      // An answer with nothing in it is no answer.
      ['q4', answer('q4', { text: '   ' })],
    ]);
    expect(missingRequired(questions, answers)).toEqual([
      { field: 'questions.1', errorCode: 'FIELD_REQUIRED', message: 'Answer “Question q2”.' },
      { field: 'questions.3', errorCode: 'FIELD_REQUIRED', message: 'Answer “Question q4”.' },
    ]);
  });

  it('counts a choice, "none of the below" or text as an answer; optional questions never miss', () => {
    const answers = new Map([
      ['q1', answer('q1', { choice_ids: ['q11'] })],
      ['q2', answer('q2', { none_of_below: true })],
      ['q4', answer('q4', { text: 'x' })],
    ]);
    expect(missingRequired(questions, answers)).toEqual([]);
    expect(isAnswered(undefined)).toBe(false);
    expect(isAnswered(answer('x'))).toBe(false);
  });
});

describe('feedbackFor', () => {
  const answers = new Map([
    ['q1', answer('q1', { choice_ids: ['q13'] })],
    ['q2', answer('q2', { choice_ids: ['q21', 'q24'], text: 'Lactate' })],
    ['q3', answer('q3', { text: 'Free text' })],
  ]);
  const score = scoreAnswers(questions, answers);
  const doc = { questions, groupers: [{ id: 'g1', name: 'Work-up' }] };

  it('lists, for personalised feedback, the necessary choices missed and the unnecessary ones chosen, by text', () => {
    const tags = new Map([['q13', ['Overuse', 'Radiation']]]);
    const feedback = feedbackFor({ ...doc, feedback_type: 'PERSONALIZED_FEEDBACK' }, answers, score, tags);
    expect(feedback.map((f) => f.question_id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    expect(feedback[0]).toEqual({
      question_id: 'q1',
      text: 'Question q1',
      type: 'MULTI_ONE',
      required: true,
      grouper_name: 'Work-up',
      choices: [
        { id: 'q11', text: 'Q1 choice 1', marked_as: N, chosen: false, tags: [] },
        { id: 'q12', text: 'Q1 choice 2', marked_as: A, chosen: false, tags: [] },
        { id: 'q13', text: 'Q1 choice 3', marked_as: U, chosen: true, tags: ['Overuse', 'Radiation'] },
      ],
      answer_text: null,
      none_of_below: false,
      scored: true,
      necessary_missed: ['Q1 choice 1'],
      unnecessary_chosen: ['Q1 choice 3'],
    });
    expect(feedback[1]).toMatchObject({
      answer_text: 'Lactate',
      necessary_missed: ['Q2 choice 2'],
      unnecessary_chosen: ['Q2 choice 4'],
    });
    // Free text is shown, never scored.
    expect(feedback[2]).toMatchObject({ answer_text: 'Free text', scored: false, necessary_missed: [] });
    expect(feedback[4]).toMatchObject({ scored: false, necessary_missed: [], unnecessary_chosen: [] });
    // Unanswered: every necessary choice missed.
    expect(feedback[3]).toMatchObject({ scored: true, necessary_missed: ['Q4 choice 1'], unnecessary_chosen: [] });
  });

  it('shows no answer key with general feedback', () => {
    const feedback = feedbackFor({ ...doc, feedback_type: 'GENERAL_FEEDBACK' }, answers, score);
    for (const item of feedback) {
      expect(item.choices.every((c) => c.marked_as === null)).toBe(true);
      expect(item.necessary_missed).toEqual([]);
      expect(item.unnecessary_chosen).toEqual([]);
    }
    // What was chosen still shows.
    expect(feedback[0]!.choices.map((c) => c.chosen)).toEqual([false, false, true]);
  });

  it('scores by the one rule: 100 × (necessary found − unnecessary chosen) ÷ necessary available', () => {
    // Necessary available: q1 1, q2 2, q4 1 = 4; found: q21 = 1; unnecessary chosen: q13, q24 = 2 → below 0 → 0.
    expect(score.score).toBe(0);
    const better = scoreAnswers(
      questions,
      new Map([
        ['q1', answer('q1', { choice_ids: ['q11'] })],
        ['q2', answer('q2', { choice_ids: ['q21', 'q22', 'q24'] })],
        ['q4', answer('q4', { choice_ids: ['q41'] })],
      ]),
    );
    // (4 − 1) ÷ 4 = 75.
    expect(better.score).toBe(75);
  });
});
