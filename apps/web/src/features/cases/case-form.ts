import {
  rtfTextFields,
  type CaseDocument,
  type MarkedAsValue,
  type QuestionTypeValue,
  type RtfCaseFields,
  type UpdateCaseBody,
} from '@pss/contract';

/**
 * The Case Setup form's values and the edits to them that are more than setting one field
 * (the editor holds the values in `useForm`; these stay pure so they are tested alone). The
 * values are the body of `PUT /cases/{id}`; new sections, groupers, questions and choices
 * get ids here, so a question can name a grouper before either is saved.
 */
export type CaseForm = Required<
  Pick<
    UpdateCaseBody,
    | 'name'
    | 'disease_type_id'
    | 'patient_name'
    | 'patient_age'
    | 'image_alt'
    | 'reason_for_encounter'
    | 'season_id'
    | 'round_number'
    | 'feedback_type'
    | 'references'
    | 'test_results'
    | 'explanation'
  >
> & {
  details_sections: { id: string; name: string; text: string }[];
  groupers: { id: string; name: string }[];
  questions: FormQuestion[];
};

export interface FormQuestion {
  id: string;
  grouper_id: string | null;
  type: QuestionTypeValue;
  text: string;
  text_before: string;
  required: boolean;
  category_id: string | null;
  choices: { id: string; text: string; marked_as: MarkedAsValue | null }[];
  allow_other: boolean;
  allow_none_of_below: boolean;
}

export const newId = (): string => crypto.randomUUID();

export function toForm(doc: CaseDocument): CaseForm {
  return {
    name: doc.name,
    disease_type_id: doc.disease_type_id,
    patient_name: doc.patient_name,
    patient_age: doc.patient_age,
    image_alt: doc.image_alt,
    reason_for_encounter: doc.reason_for_encounter,
    season_id: doc.season_id,
    round_number: doc.round_number,
    feedback_type: doc.feedback_type,
    references: doc.references,
    test_results: doc.test_results,
    explanation: doc.explanation,
    details_sections: doc.details_sections.map((s) => ({ ...s })),
    groupers: doc.groupers.map((g) => ({ ...g })),
    questions: doc.questions.map((q) => ({ ...q, choices: q.choices.map((c) => ({ ...c })) })),
  };
}

export function newQuestion(type: QuestionTypeValue, categoryId: string | null): FormQuestion {
  const choiceCount = type === 'TEXT' ? 0 : type === 'TYPE_AHEAD' ? 1 : 2;
  return {
    id: newId(),
    grouper_id: null,
    type,
    text: '',
    text_before: '',
    required: true,
    category_id: categoryId,
    choices: Array.from({ length: choiceCount }, () => ({ id: newId(), text: '', marked_as: null })),
    allow_other: false,
    allow_none_of_below: false,
  };
}

/** Changing a question's type keeps what still makes sense (the choices, unless it becomes free text). */
export function changeType(question: FormQuestion, type: QuestionTypeValue): FormQuestion {
  const choices =
    type === 'TEXT'
      ? []
      : question.choices.length
        ? question.choices.map((c) => ({ ...c, marked_as: type === 'TYPE_AHEAD' ? null : c.marked_as }))
        : newQuestion(type, null).choices;
  const choiceType = type === 'MULTI_ONE' || type === 'MULTI_MANY' || type === 'DROPDOWN';
  return {
    ...question,
    type,
    choices,
    allow_other: choiceType && question.allow_other,
    allow_none_of_below: choiceType && question.allow_none_of_below,
  };
}

/** Choosing another season clears the round, which belonged to the season before. */
export function placeInSeason(form: CaseForm, seasonId: string | null): CaseForm {
  return { ...form, season_id: seasonId, round_number: seasonId === form.season_id ? form.round_number : null };
}

/** Removing a grouper leaves its questions ungrouped. */
export function removeGrouper(form: CaseForm, index: number): CaseForm {
  const removed = form.groupers[index];
  return {
    ...form,
    groupers: form.groupers.filter((_, i) => i !== index),
    questions: form.questions.map((q) => (q.grouper_id === removed?.id ? { ...q, grouper_id: null } : q)),
  };
}

/**
 * Merges what an RTF file gave into the form: fields it found replace the form's, its
 * details sections are added after the existing ones. Returns how many fields it filled.
 */
export function mergeRtf(form: CaseForm, fields: RtfCaseFields): { form: CaseForm; filled: number } {
  const next = { ...form };
  let filled = 0;
  for (const key of rtfTextFields) {
    const value = fields[key];
    if (value === undefined || value === '') continue;
    next[key] = value;
    filled += 1;
  }
  if (fields.patient_age !== undefined) {
    next.patient_age = fields.patient_age;
    filled += 1;
  }
  if (fields.details_sections.length) {
    next.details_sections = [...form.details_sections, ...fields.details_sections.map((s) => ({ id: newId(), ...s }))];
    filled += fields.details_sections.length;
  }
  return { form: next, filled };
}
