import type {
  QuestionTypeValue,
  SavedSurveyPage,
  SurveyTemplateTypeValue,
  UpdateSurveyTemplateBody,
} from '@pss/contract';
import { isChoiceQuestion } from '@pss/contract';
import type { UseFormReturnType } from '@mantine/form';

/**
 * The builder's form: a template's name, type and pages, every page, component and choice
 * with an id made in the browser (kept by the server), so that the drag-and-drop lists and
 * the preview can name them before the first save. Edits are pure functions, tested alone.
 */
export interface FormChoice {
  id: string;
  text: string;
}
export interface FormQuestion {
  id: string;
  kind: 'QUESTION';
  type: QuestionTypeValue;
  text: string;
  text_before: string;
  required: boolean;
  choices: FormChoice[];
  allow_other: boolean;
  allow_none_of_below: boolean;
}
export interface FormInfoReview {
  id: string;
  kind: 'INFO_REVIEW';
  text: string;
}
export type FormComponent = FormQuestion | FormInfoReview;
export interface FormPage {
  id: string;
  name: string;
  components: FormComponent[];
}
export interface SurveyFormValues {
  name: string;
  type: SurveyTemplateTypeValue;
  pages: FormPage[];
}

/** The builder's `useForm`. */
export type SurveyForm = UseFormReturnType<SurveyFormValues>;
/** A field's id in the page, so a problem's link can take the eye (and focus) to it. */
export const builderFieldId = (path: string) => `survey-${path.replace(/\./g, '-')}`;

export const newId = (): string => crypto.randomUUID();

export function newPage(existing: FormPage[], label: (n: number) => string): FormPage {
  // A name no other page has, so a new page never starts out refused.
  let n = existing.length + 1;
  const taken = new Set(existing.map((p) => p.name.trim().toLowerCase()));
  while (taken.has(label(n).toLowerCase())) n += 1;
  return { id: newId(), name: label(n), components: [] };
}

export function newQuestion(type: QuestionTypeValue): FormQuestion {
  const choices = type === 'TEXT' ? [] : type === 'TYPE_AHEAD' ? [''] : ['', ''];
  return {
    id: newId(),
    kind: 'QUESTION',
    type,
    text: '',
    text_before: '',
    required: true,
    choices: choices.map((text) => ({ id: newId(), text })),
    allow_other: false,
    allow_none_of_below: false,
  };
}

export const newInfoReview = (text: string): FormInfoReview => ({ id: newId(), kind: 'INFO_REVIEW', text });

/** A question's new type: choices kept where the new type takes them, "other" and "none" only for choice types. */
export function changeQuestionType(q: FormQuestion, type: QuestionTypeValue): FormQuestion {
  const choices = type === 'TEXT' ? [] : q.choices.length ? q.choices : newQuestion(type).choices;
  return {
    ...q,
    type,
    choices,
    allow_other: isChoiceQuestion(type) && q.allow_other,
    allow_none_of_below: isChoiceQuestion(type) && q.allow_none_of_below,
  };
}

/** Moves an item of a list from one index to another (a drop, or a keyboard move). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

export function formFromTemplate(t: { name: string; type: SurveyTemplateTypeValue; pages: SavedSurveyPage[] }) {
  return {
    name: t.name,
    type: t.type,
    pages: t.pages.map((p) => ({
      ...p,
      components: p.components.map((c) => ({ ...c, choices: c.kind === 'QUESTION' ? [...c.choices] : undefined })),
    })) as FormPage[],
  } satisfies SurveyFormValues;
}

/** The form as `POST`/`PUT /survey-templates` take it (trimmed). */
export function toBody(values: SurveyFormValues): UpdateSurveyTemplateBody {
  return {
    name: values.name.trim(),
    type: values.type,
    pages: values.pages.map((p) => ({
      id: p.id,
      name: p.name.trim(),
      components: p.components.map((c) =>
        c.kind === 'INFO_REVIEW'
          ? { id: c.id, kind: 'INFO_REVIEW' as const, text: c.text.trim() }
          : {
              ...c,
              text: c.text.trim(),
              choices: c.choices.map((choice) => ({ id: choice.id, text: choice.text.trim() })),
            },
      ),
    })),
  };
}

/** The unsaved form as the participant will see it (the preview): every question as saved, ids and all. */
export function toPreview(values: SurveyFormValues): SavedSurveyPage[] {
  return toBody(values).pages.map((p) => ({
    id: p.id!,
    name: p.name,
    components: p.components.map((c) =>
      c.kind === 'INFO_REVIEW'
        ? { id: c.id!, kind: 'INFO_REVIEW' as const, text: c.text ?? '' }
        : {
            ...c,
            id: c.id!,
            text_before: c.text_before ?? '',
            choices: c.choices.map((choice) => ({ id: choice.id!, text: choice.text })),
          },
    ),
  }));
}
