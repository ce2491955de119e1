import { describe, expect, it } from 'vitest';
import { surveyTemplateProblems } from '@pss/contract';
import {
  changeQuestionType,
  formFromTemplate,
  moveItem,
  newInfoReview,
  newPage,
  newQuestion,
  toBody,
  toPreview,
  type SurveyFormValues,
} from './survey-form';

const label = (n: number) => `Page ${n}`;

describe('the survey builder’s form', () => {
  it('names a new page so that it is never refused for its name', () => {
    const first = newPage([], label);
    expect(first.name).toBe('Page 1');
    const renamed = { ...newPage([first], label), name: 'Page 3' };
    expect(newPage([first, renamed], label).name).toBe('Page 4');
  });

  it('moves an item from one place to another, and leaves the list alone for a move out of range', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
  });

  it('keeps choices across a type change where the new type takes them, and "other" only for choice types', () => {
    const q = { ...newQuestion('MULTI_MANY'), allow_other: true, allow_none_of_below: true };
    expect(changeQuestionType(q, 'TEXT')).toMatchObject({
      choices: [],
      allow_other: false,
      allow_none_of_below: false,
    });
    const typeAhead = changeQuestionType(q, 'TYPE_AHEAD');
    expect(typeAhead.choices).toBe(q.choices);
    expect(typeAhead.allow_other).toBe(false);
    expect(changeQuestionType(changeQuestionType(q, 'TEXT'), 'DROPDOWN').choices).toHaveLength(2);
  });

  it('refuses, as the server does, a survey without pages or with a page without a component', () => {
    const problems = (values: SurveyFormValues) =>
      surveyTemplateProblems(toBody(values)).map((p) => [p.field, p.errorCode]);
    expect(problems({ name: 'Empty', type: 'END', pages: [] })).toEqual([['pages', 'SURVEY_EMPTY']]);
    const question = { ...newQuestion('TEXT'), text: 'Anything else?' };
    const full = { ...newPage([], label), components: [question] };
    const bare = newPage([full], label);
    expect(problems({ name: 'Half', type: 'END', pages: [full, bare] })).toEqual([
      ['pages.1.components', 'SURVEY_EMPTY'],
    ]);
    expect(problems({ name: 'Whole', type: 'END', pages: [full] })).toEqual([]);
  });

  it('turns the form into the request body and the preview, trimmed, with its ids', () => {
    const question = { ...newQuestion('DROPDOWN'), text: ' Where? ' };
    question.choices = question.choices.map((c, i) => ({ ...c, text: ` ${i ? 'Clinic' : 'Hospital'} ` }));
    const values: SurveyFormValues = {
      name: ' Check-in ',
      type: 'START_NEW',
      pages: [{ id: 'p1', name: ' First ', components: [question, newInfoReview(' Check ')] }],
    };
    const body = toBody(values);
    expect(body.name).toBe('Check-in');
    expect(body.pages[0]!.name).toBe('First');
    expect(body.pages[0]!.components[0]).toMatchObject({ id: question.id, text: 'Where?' });
    // The contract's rule sees what the server will: an info review in a START_NEW template.
    expect(surveyTemplateProblems(body).map((p) => p.errorCode)).toEqual(['START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED']);
    const [page] = toPreview(values);
    expect(page!.components.map((c) => c.kind)).toEqual(['QUESTION', 'INFO_REVIEW']);
    expect(formFromTemplate({ name: 'x', type: 'END', pages: toPreview(values) }).pages[0]!.components).toHaveLength(2);
  });
});
