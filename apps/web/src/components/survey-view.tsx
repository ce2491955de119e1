import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import type {
  CaseForParticipant,
  SavedSurveyPage,
  StoredSurveyAnswer,
  SurveyAnswer,
  SurveyProfile,
  SurveyQuestion,
} from '@pss/contract';
import { emptyAnswer, QuestionInput, toAnswer, type AnswerState, type AnswersState } from './case-answer-form';
import '../lib/i18n/case';

/**
 * A survey as its participant answers it, page by page — the same component shows the
 * builder's live preview, so the preview is exactly what the participant sees. Questions
 * use the case answer inputs; an info review shows the participant's own details, of which
 * the display name and the mobile number may be corrected there.
 */
export interface SurveyViewProps {
  name: string;
  pages: SavedSurveyPage[];
  /** Answers saved earlier (a survey left half-way starts where it was left). */
  saved?: StoredSurveyAnswer[];
  profile: SurveyProfile | null;
  /** The preview: nothing is sent, and its buttons say so. */
  preview?: boolean;
  /** Keeps the answers so far (`complete: false`) or completes the survey. */
  onSave(answers: SurveyAnswer[], complete: boolean): Promise<void>;
  onProfileChange?(field: 'display_name' | 'mobile_number', value: string): Promise<void>;
}

/** A survey question in the shape the case answer inputs take. */
const asCaseQuestion = (q: SurveyQuestion): CaseForParticipant['questions'][number] => ({ ...q, grouper_id: null });

const answered = (a: AnswerState | undefined) =>
  Boolean(a && (a.choice_ids.length || a.text.trim() || a.none_of_below));

function fromStored(pages: SavedSurveyPage[], saved: StoredSurveyAnswer[]): AnswersState {
  const questions = new Map(
    pages.flatMap((p) => p.components).flatMap((c) => (c.kind === 'QUESTION' ? [[c.id, c] as const] : [])),
  );
  const state: AnswersState = {};
  for (const a of saved) {
    const q = questions.get(a.component_id);
    if (!q) continue;
    const freeText = q.type === 'TEXT' || q.type === 'TYPE_AHEAD';
    state[q.id] = {
      choice_ids: a.choice_ids,
      text: a.text ?? '',
      other: !freeText && Boolean(a.text),
      none_of_below: a.none_of_below,
    };
  }
  return state;
}

export function SurveyView(props: SurveyViewProps) {
  const { t } = useTranslation();
  const { pages } = props;
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<AnswersState>(() => fromStored(pages, props.saved ?? []));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const page = pages[Math.min(index, pages.length - 1)];
  const last = index >= pages.length - 1;

  const questionsOf = (p: SavedSurveyPage | undefined) =>
    (p?.components ?? []).filter((c): c is SurveyQuestion => c.kind === 'QUESTION');
  const allAnswers = (): SurveyAnswer[] =>
    pages.flatMap(questionsOf).flatMap((q) => {
      const a = answers[q.id];
      if (!answered(a)) return [];
      const { question_id, ...rest } = toAnswer(asCaseQuestion(q), a!);
      return [{ component_id: question_id, ...rest }];
    });

  async function go(next: number | 'submit') {
    const missing = questionsOf(page).filter((q) => q.required && !answered(answers[q.id]));
    if (missing.length && (next === 'submit' || next > index)) {
      setErrors(Object.fromEntries(missing.map((q) => [q.id, t('common.caseView.answerRequired')])));
      return;
    }
    setBusy(true);
    try {
      await props.onSave(allAnswers(), next === 'submit');
      if (next !== 'submit') {
        setIndex(next);
        window.scrollTo?.({ top: 0 });
      }
    } catch {
      // The caller has said what went wrong; the participant stays on this page, answers kept.
    } finally {
      setBusy(false);
    }
  }

  if (!page) return <Alert color="gray">{t('common.survey.empty')}</Alert>;
  return (
    <Paper withBorder p="md" component="section" aria-label={props.name}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h3">
            {props.name}
          </Title>
          <Text size="sm" c="dimmed">
            {t('common.survey.pageOf', { n: index + 1, total: pages.length, name: page.name })}
          </Text>
        </Stack>
        {page.components.map((c, i) =>
          c.kind === 'QUESTION' ? (
            <QuestionInput
              key={c.id}
              index={questionNumber(pages, index, i)}
              question={asCaseQuestion(c)}
              answer={answers[c.id] ?? emptyAnswer}
              error={errors[c.id]}
              onChange={(a) => {
                setAnswers((current) => ({ ...current, [c.id]: a }));
                setErrors(({ [c.id]: _, ...rest }) => rest);
              }}
            />
          ) : (
            <InfoReview key={c.id} text={c.text} profile={props.profile} onChange={props.onProfileChange} />
          ),
        )}
        <Group justify="space-between" wrap="wrap">
          <Button variant="default" disabled={index === 0 || busy} onClick={() => setIndex(index - 1)}>
            {t('common.survey.back')}
          </Button>
          {last ? (
            <Button loading={busy} onClick={() => void go('submit')}>
              {props.preview ? t('common.survey.submitPreview') : t('common.survey.submit')}
            </Button>
          ) : (
            <Button loading={busy} onClick={() => void go(index + 1)}>
              {t('common.survey.next')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** Questions are numbered across the whole survey (0-based here; the input adds one). */
function questionNumber(pages: SavedSurveyPage[], pageIndex: number, componentIndex: number): number {
  const before = pages.slice(0, pageIndex).flatMap((p) => p.components.filter((c) => c.kind === 'QUESTION')).length;
  return before + pages[pageIndex]!.components.slice(0, componentIndex).filter((c) => c.kind === 'QUESTION').length;
}

const profileRows = [
  'salutation',
  'first_name',
  'last_name',
  'profession',
  'specialty',
  'facility',
  'npi',
  'practice_number',
] as const;

function InfoReview(props: {
  text: string;
  profile: SurveyProfile | null;
  onChange?: SurveyViewProps['onProfileChange'];
}) {
  const { t } = useTranslation();
  const profile = props.profile;
  const [values, setValues] = useState({
    display_name: profile?.display_name ?? '',
    mobile_number: profile?.mobile_number ?? '',
  });
  const [saved, setSaved] = useState<string | null>(null);
  if (!profile) return null;
  const correct = async (field: 'display_name' | 'mobile_number') => {
    if (!props.onChange) return;
    await props.onChange(field, values[field]);
    setSaved(field);
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('common.survey.infoReview')}
        </Title>
        {props.text && <Text>{props.text}</Text>}
        <Table variant="vertical" withTableBorder>
          <Table.Tbody>
            {profileRows.map((field) => (
              <Table.Tr key={field}>
                <Table.Th w="40%">{t(`common.survey.profile.${field}`)}</Table.Th>
                <Table.Td>{profile[field] || '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {(['display_name', 'mobile_number'] as const).map((field) => (
          <Group key={field} align="flex-end" wrap="wrap">
            <TextInput
              label={t(`common.survey.profile.${field}`)}
              value={values[field]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setValues((v) => ({ ...v, [field]: value }));
                setSaved(null);
              }}
              maw={320}
              style={{ flexGrow: 1 }}
            />
            <Button
              variant="default"
              onClick={() => void correct(field)}
              disabled={!props.onChange}
              aria-label={`${t('common.survey.correct')}: ${t(`common.survey.profile.${field}`)}`}
            >
              {t('common.survey.correct')}
            </Button>
            {saved === field && (
              <Text size="sm" c="teal.8" role="status">
                {t('common.survey.corrected')}
              </Text>
            )}
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
