import { lazy, Suspense, type ReactNode } from 'react';
import { Checkbox, Divider, Group, Image, Paper, Radio, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import type { CaseAnswer, CaseForParticipant } from '@pss/contract';
import { RichTextView } from './rich-text-view';
import '../lib/i18n/case';

/** One question's answer as the form holds it; `other` marks the "other" entry as chosen. */
export interface AnswerState {
  choice_ids: string[];
  text: string;
  other: boolean;
  none_of_below: boolean;
}
export type AnswersState = Record<string, AnswerState>;

// The dropdown and type-ahead inputs load only where such a question is shown (dropdown-inputs.tsx).
const ChoiceSelect = lazy(async () => ({ default: (await import('./dropdown-inputs')).ChoiceSelect }));
const TypeAheadInput = lazy(async () => ({ default: (await import('./dropdown-inputs')).TypeAheadInput }));

/**
 * While a list input loads, a plain field of the same label and height stands in its place,
 * so nothing below it moves when it arrives.
 */
function LoadingInput(props: { label: string; required: boolean; value: string; children: ReactNode }) {
  return (
    <Suspense
      fallback={<TextInput label={props.label} withAsterisk={props.required} value={props.value} readOnly disabled />}
    >
      {props.children}
    </Suspense>
  );
}

const OTHER = '__other__';
const NONE = '__none__';
export const emptyAnswer: AnswerState = { choice_ids: [], text: '', other: false, none_of_below: false };

/** The answers as `POST /previews` (and a participant's answer calls) take them. */
export function toAnswers(questions: CaseForParticipant['questions'], state: AnswersState): CaseAnswer[] {
  return questions.flatMap((q) => {
    const a = state[q.id];
    const answer = a && toAnswer(q, a);
    return answer && (answer.choice_ids!.length || answer.text || answer.none_of_below) ? [answer] : [];
  });
}

/** One question's answer as the API takes it (an emptied answer too: it clears what was saved). */
export function toAnswer(q: CaseForParticipant['questions'][number], a: AnswerState): CaseAnswer {
  const freeText = q.type === 'TEXT' || q.type === 'TYPE_AHEAD';
  const text = freeText || a.other ? a.text.trim() : '';
  return { question_id: q.id, choice_ids: a.choice_ids, text: text || null, none_of_below: a.none_of_below };
}

/** The form's state from answers saved earlier (leave and come back: nothing lost). */
export function fromSaved(
  questions: CaseForParticipant['questions'],
  saved: { question_id: string; choice_ids: string[]; text: string | null; none_of_below: boolean }[],
): AnswersState {
  const state: AnswersState = {};
  for (const answer of saved) {
    const q = questions.find((question) => question.id === answer.question_id);
    if (!q) continue;
    const freeText = q.type === 'TEXT' || q.type === 'TYPE_AHEAD';
    state[q.id] = {
      choice_ids: answer.choice_ids,
      text: answer.text ?? '',
      other: !freeText && Boolean(answer.text),
      none_of_below: answer.none_of_below,
    };
  }
  return state;
}

/** The patient's background and details, as a participant reads them before answering. */
export function CaseVignette({ view, imageUrl }: { view: CaseForParticipant; imageUrl?: string | null }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg">
      <Stack gap="sm">
        <Group align="flex-start" wrap="wrap">
          {imageUrl && (
            // The author's description, read by screen readers; a phone gets the image at full width.
            <Image
              src={imageUrl}
              alt={view.image_alt || t('common.caseView.patientImageAlt')}
              w={{ base: '100%', xs: 220 }}
              mah={320}
              radius="sm"
              fit="contain"
            />
          )}
          <Stack gap={2}>
            <Title order={3}>{view.patient_name}</Title>
            {view.patient_age !== null && <Text c="dimmed">{t('common.caseView.age', { age: view.patient_age })}</Text>}
          </Stack>
        </Group>
        <Title order={4}>{t('common.caseView.reasonForEncounter')}</Title>
        <RichTextView html={view.reason_for_encounter} />
        {view.details_sections.map((s) => (
          <Stack key={s.id} gap={4}>
            <Title order={4}>{s.name}</Title>
            <RichTextView html={s.text} />
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

/** Every question of a case with the input its type calls for, grouped by grouper. */
export function CaseQuestions(props: {
  view: CaseForParticipant;
  answers: AnswersState;
  errors: Record<string, string>;
  onChange(questionId: string, answer: AnswerState): void;
}) {
  const { view } = props;
  const grouperName = new Map(view.groupers.map((g) => [g.id, g.name]));
  let lastGrouper: string | null = null;
  return (
    <Stack gap="md">
      {view.questions.map((q, i) => {
        const heading = q.grouper_id !== lastGrouper && q.grouper_id ? grouperName.get(q.grouper_id) : null;
        lastGrouper = q.grouper_id;
        return (
          <Stack key={q.id} gap="md">
            {heading && (
              <>
                <Divider />
                <Title order={4}>{heading}</Title>
              </>
            )}
            <QuestionInput
              index={i}
              question={q}
              answer={props.answers[q.id] ?? emptyAnswer}
              error={props.errors[`questions.${i}`]}
              onChange={(a) => props.onChange(q.id, a)}
            />
          </Stack>
        );
      })}
    </Stack>
  );
}

export function QuestionInput(props: {
  index: number;
  question: CaseForParticipant['questions'][number];
  answer: AnswerState;
  error?: string;
  onChange(answer: AnswerState): void;
}) {
  const { t } = useTranslation();
  const { question: q, answer: a, onChange } = props;
  const label = `${props.index + 1}. ${q.text}`;
  const extras = [
    ...(q.allow_other ? [{ value: OTHER, label: t('common.caseView.other') }] : []),
    ...(q.allow_none_of_below ? [{ value: NONE, label: t('common.caseView.noneOfBelow') }] : []),
  ];
  const options = [...q.choices.map((c) => ({ value: c.id, label: c.text })), ...extras];
  const single = a.none_of_below ? NONE : a.other ? OTHER : (a.choice_ids[0] ?? null);
  const pickSingle = (value: string | null) =>
    onChange({
      ...a,
      choice_ids: value && value !== OTHER && value !== NONE ? [value] : [],
      other: value === OTHER,
      none_of_below: value === NONE,
    });
  const otherText = a.other && (
    <TextInput
      label={t('common.caseView.otherText', { n: props.index + 1 })}
      value={a.text}
      onChange={(e) => onChange({ ...a, text: e.currentTarget.value })}
    />
  );

  let input: React.ReactNode;
  switch (q.type) {
    case 'MULTI_ONE':
      input = (
        <Radio.Group label={label} withAsterisk={q.required} value={single} onChange={pickSingle} error={props.error}>
          <Stack gap="xs" mt="xs">
            {options.map((o) => (
              <Radio key={o.value} value={o.value} label={o.label} />
            ))}
          </Stack>
        </Radio.Group>
      );
      break;
    case 'DROPDOWN':
      input = (
        <LoadingInput label={label} required={q.required} value={options.find((o) => o.value === single)?.label ?? ''}>
          <ChoiceSelect
            label={label}
            required={q.required}
            placeholder={t('common.caseView.chooseAnswer')}
            options={options}
            value={single}
            onChange={pickSingle}
            error={props.error}
          />
        </LoadingInput>
      );
      break;
    case 'MULTI_MANY': {
      const values = [...a.choice_ids, ...(a.other ? [OTHER] : []), ...(a.none_of_below ? [NONE] : [])];
      input = (
        <Checkbox.Group
          label={label}
          withAsterisk={q.required}
          value={values}
          error={props.error}
          onChange={(next) => {
            // "None of the below" stands alone: choosing it clears the rest, and the reverse.
            const none = next.includes(NONE) && !a.none_of_below;
            onChange({
              ...a,
              none_of_below: none,
              other: !none && next.includes(OTHER),
              choice_ids: none ? [] : next.filter((v) => v !== OTHER && v !== NONE),
            });
          }}
        >
          <Stack gap="xs" mt="xs">
            {options.map((o) => (
              <Checkbox key={o.value} value={o.value} label={o.label} />
            ))}
          </Stack>
        </Checkbox.Group>
      );
      break;
    }
    case 'TYPE_AHEAD':
      input = (
        <LoadingInput label={label} required={q.required} value={a.text}>
          <TypeAheadInput
            label={label}
            required={q.required}
            suggestions={[...new Set(q.choices.map((c) => c.text))]}
            value={a.text}
            error={props.error}
            onChange={(text) => onChange({ ...a, text })}
          />
        </LoadingInput>
      );
      break;
    default:
      input = (
        <Textarea
          label={label}
          withAsterisk={q.required}
          autosize
          minRows={2}
          value={a.text}
          error={props.error}
          onChange={(e) => onChange({ ...a, text: e.currentTarget.value })}
        />
      );
  }
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <RichTextView html={q.text_before} />
        {input}
        {otherText}
      </Stack>
    </Paper>
  );
}
