import { randomUUID } from 'node:crypto';
import type { CaseDocument, UpdateCaseBody } from '@pss/contract';

/**
 * Case bodies for API tests: complete, publishable cases for a project or module whose
 * first disease type and question category they use, and answers to them.
 */

export type QuestionInput = UpdateCaseBody['questions'][number];
export type Mark = QuestionInput['choices'][number]['marked_as'];
export const choice = (text: string, marked_as: Mark) => ({ text, marked_as });

export interface CaseHomeIds {
  diseaseTypeId: string;
  categoryId: string;
}

type QuestionFields = Partial<QuestionInput> & Pick<QuestionInput, 'type' | 'text'>;

/** A required question of the home's first category, without choices unless given. */
export function questionOf(home: CaseHomeIds, fields: QuestionFields): QuestionInput {
  return {
    grouper_id: null,
    text_before: '',
    required: true,
    category_id: home.categoryId,
    choices: [],
    allow_other: false,
    allow_none_of_below: false,
    ...fields,
  };
}

/** A complete, publishable case: questions of several types, two of them in a grouper. */
export function validCase(home: CaseHomeIds, overrides: Partial<UpdateCaseBody> = {}): UpdateCaseBody {
  const workUp = randomUUID();
  const question = (fields: QuestionFields) => questionOf(home, fields);
  return {
    name: 'Chest pain at rest',
    disease_type_id: home.diseaseTypeId,
    patient_name: 'Ann Smith',
    patient_age: 54,
    reason_for_encounter: '<p>Chest pain for two hours.</p>',
    season_id: null,
    round_number: null,
    feedback_type: 'PERSONALIZED_FEEDBACK',
    references: '<p>ESC guidelines, 2023.</p>',
    test_results: '<p>Troponin 0.4 ng/mL.</p>',
    explanation: '<p>An acute coronary syndrome until proven otherwise.</p>',
    details_sections: [{ name: 'History', text: '<p>Smoker, <strong>40 pack-years</strong>.</p>' }],
    groupers: [{ id: workUp, name: 'Work-up' }],
    questions: [
      question({
        type: 'MULTI_ONE',
        text: 'First test?',
        grouper_id: workUp,
        choices: [
          choice('ECG', 'NECESSARY'),
          choice('Chest X-ray', 'APPROPRIATE'),
          choice('Colonoscopy', 'UNNECESSARY'),
        ],
      }),
      question({
        type: 'MULTI_MANY',
        text: 'Which blood tests?',
        grouper_id: workUp,
        choices: [choice('Troponin', 'NECESSARY'), choice('D-dimer', 'APPROPRIATE'), choice('Lipase', 'UNNECESSARY')],
      }),
      question({ type: 'TEXT', text: 'What do you tell the patient?', required: false }),
      question({
        type: 'DROPDOWN',
        text: 'Disposition',
        choices: [choice('Admit to cardiology', 'NECESSARY'), choice('Discharge home', 'UNNECESSARY')],
      }),
    ],
    ...overrides,
  };
}

/**
 * A complete, publishable case with one question of each type: 0 MULTI_ONE (ECG N, Chest
 * X-ray A, Colonoscopy U), 1 MULTI_MANY (Troponin N, CK-MB N, D-dimer A, Lipase U; other,
 * none of the below), 2 TEXT (optional), 3 DROPDOWN (Admit N, Discharge U), 4 TYPE_AHEAD
 * (optional); 0 and 1 in a grouper.
 */
export function everyTypeCase(home: CaseHomeIds, overrides: Partial<UpdateCaseBody> = {}): UpdateCaseBody {
  const base = validCase(home);
  const question = (fields: QuestionFields) => questionOf(home, fields);
  const workUp = base.groupers[0]!.id;
  return {
    ...base,
    questions: [
      question({
        type: 'MULTI_ONE',
        text: 'First test?',
        grouper_id: workUp,
        text_before: '<p>In the emergency room.</p>',
        choices: base.questions[0]!.choices,
      }),
      question({
        type: 'MULTI_MANY',
        text: 'Which blood tests?',
        grouper_id: workUp,
        choices: [
          choice('Troponin', 'NECESSARY'),
          choice('CK-MB', 'NECESSARY'),
          choice('D-dimer', 'APPROPRIATE'),
          choice('Lipase', 'UNNECESSARY'),
        ],
        allow_other: true,
        allow_none_of_below: true,
      }),
      base.questions[2]!,
      base.questions[3]!,
      question({
        type: 'TYPE_AHEAD',
        text: 'Working diagnosis',
        required: false,
        choices: [choice('Acute myocardial infarction', null), choice('Stable angina', null)],
      }),
    ],
    ...overrides,
  };
}

/** Answers every required question of a case with its first choice. */
export function requiredAnswers(doc: CaseDocument) {
  return doc.questions.filter((q) => q.required).map((q) => ({ question_id: q.id, choice_ids: [q.choices[0]!.id] }));
}

/** Answers to a case's choice questions that pick exactly the necessary choices. */
export function perfectAnswers(doc: {
  questions: { id: string; type: string; choices: { id: string; marked_as: Mark }[] }[];
}) {
  return doc.questions
    .filter((q) => q.type !== 'TEXT' && q.type !== 'TYPE_AHEAD')
    .map((q) => ({
      question_id: q.id,
      choice_ids: q.choices.filter((c) => c.marked_as === 'NECESSARY').map((c) => c.id),
    }));
}
