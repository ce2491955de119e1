import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, List, Paper, RingProgress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Attempt, FieldIssue } from '@pss/contract';
import {
  CaseQuestions,
  CaseVignette,
  fromSaved,
  toAnswer,
  type AnswerState,
  type AnswersState,
} from '../../components/case-answer-form';
import { QuestionResult } from '../../components/question-result';
import { RichTextView } from '../../components/rich-text-view';
import { ApiError, errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { toastError } from '../../lib/toasts';
import { CaseResources } from './case-resources';
import { attemptQueryOptions, participantKeys, saveAnswer, stampAttempt, useAttemptAction } from './participant-api';

/** Free text is saved after a pause in typing; a choice at once. */
const TEXT_SAVE_DELAY_MS = 700;
const RETRY_DELAY_MS = 3000;

/** `/participant/cases/{userSeasonRoundCaseId}`: take a case, answer by answer, then read the feedback. */
export function ParticipantCasePage() {
  const { t } = useTranslation();
  const { attemptId = '' } = useParams();
  const attempt = useQuery(attemptQueryOptions(attemptId));
  if (attempt.error) {
    return (
      <Alert color="red" role="alert" title={errorMessage(attempt.error, t)}>
        <Anchor component={Link} to="/participant">
          {t('clinician.backToDashboard')}
        </Anchor>
      </Alert>
    );
  }
  // The form starts from the answers saved on the server: wait for them, never a cached copy.
  if (!attempt.data || !attempt.isFetchedAfterMount) return <Skeleton h={400} />;
  if (attempt.data.result) return <CaseResultView attempt={attempt.data} />;
  return <TakeCase key={attempt.data.id} attempt={attempt.data} />;
}

function TakeCase({ attempt }: { attempt: Attempt }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const start = useAttemptAction(attempt.id, 'start');
  const submit = useAttemptAction(attempt.id, 'submit');
  const [answers, setAnswers] = useState<AnswersState>(() => fromSaved(attempt.case.questions, attempt.answers));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [saving, setSaving] = useState(0);
  const [saveFailed, setSaveFailed] = useState(false);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const pending = useRef(new Map<string, AnswerState>());
  const locked = attempt.unlocks_on > new Date().toISOString().slice(0, 10);

  async function persist(questionId: string) {
    const answer = pending.current.get(questionId);
    const question = attempt.case.questions.find((q) => q.id === questionId);
    if (!answer || !question) return;
    pending.current.delete(questionId);
    setSaving((n) => n + 1);
    try {
      await saveAnswer(attempt.id, toAnswer(question, answer));
      setSaveFailed(false);
    } catch (error) {
      setSaveFailed(true);
      // Kept and sent again shortly (unless a newer answer has taken its place).
      if (!pending.current.has(questionId)) pending.current.set(questionId, answer);
      timers.current.set(
        questionId,
        setTimeout(() => void persist(questionId), RETRY_DELAY_MS),
      );
      toastError(errorMessage(error, t));
    } finally {
      setSaving((n) => n - 1);
    }
  }

  function flushAll(): Promise<unknown> {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    return Promise.all([...pending.current.keys()].map((id) => persist(id)));
  }

  // Leaving the page saves what is still waiting.
  useEffect(() => {
    const flush = () => void flushAll();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function change(questionId: string, answer: AnswerState) {
    setAnswers((current) => ({ ...current, [questionId]: answer }));
    setErrors((current) => {
      const index = attempt.case.questions.findIndex((q) => q.id === questionId);
      const { [`questions.${index}`]: _, ...rest } = current;
      return rest;
    });
    pending.current.set(questionId, answer);
    clearTimeout(timers.current.get(questionId));
    const question = attempt.case.questions.find((q) => q.id === questionId);
    const typed = question && (question.type === 'TEXT' || question.type === 'TYPE_AHEAD' || answer.other);
    timers.current.set(
      questionId,
      setTimeout(() => void persist(questionId), typed ? TEXT_SAVE_DELAY_MS : 0),
    );
  }

  async function submitCase() {
    await flushAll();
    try {
      await submit.mutateAsync();
      window.scrollTo({ top: 0 });
    } catch (error) {
      if (error instanceof ApiError && error.errorCode === 'CASES_NOT_COMPLETED') {
        const fields = (error.details as { fields?: FieldIssue[] } | undefined)?.fields ?? [];
        setErrors(Object.fromEntries(fields.map((f) => [f.field, t('common.caseView.answerRequired')])));
        setMissing(
          fields.map((f) => {
            const index = Number(f.field.split('.')[1]);
            return `${index + 1}. ${attempt.case.questions[index]?.text ?? ''}`;
          }),
        );
      } else {
        toastError(errorMessage(error, t));
      }
    }
  }

  if (attempt.status === 'NOT_STARTED') {
    return (
      <Stack>
        <Anchor component={Link} to="/participant" size="sm">
          {t('clinician.backToDashboard')}
        </Anchor>
        <CaseVignette view={attempt.case} />
        <CaseResources attemptId={attempt.id} />
        {locked ? (
          <Alert color="gray">{t('clinician.unlocksOn', { date: formatDate(attempt.unlocks_on) })}</Alert>
        ) : (
          <Group justify="flex-end">
            <Button
              size="md"
              loading={start.isPending}
              onClick={() =>
                start.mutate(undefined, {
                  onSuccess: () =>
                    void queryClient.invalidateQueries({ queryKey: participantKeys.attempt(attempt.id) }),
                  onError: (error) => toastError(errorMessage(error, t)),
                })
              }
            >
              {t('clinician.startCase')}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }

  return (
    <Stack>
      <Anchor component={Link} to="/participant" size="sm">
        {t('clinician.backToDashboard')}
      </Anchor>
      <CaseVignette view={attempt.case} />
      <CaseResources attemptId={attempt.id} />
      <CaseQuestions view={attempt.case} answers={answers} errors={errors} onChange={change} />
      {missing.length > 0 && (
        <Alert color="red" role="alert" title={t('clinician.missingTitle')}>
          <List size="sm">
            {missing.map((m) => (
              <List.Item key={m}>{m}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c={saveFailed ? 'red.8' : 'dimmed'} aria-live="polite" data-testid="save-state">
          {saveFailed ? t('clinician.saveFailed') : saving > 0 ? t('clinician.saving') : t('clinician.saved')}
        </Text>
        <Button size="md" onClick={() => void submitCase()} loading={submit.isPending}>
          {t('clinician.submit')}
        </Button>
      </Group>
    </Stack>
  );
}

function CaseResultView({ attempt }: { attempt: Attempt }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const result = attempt.result!;
  const personalised = result.feedback_type === 'PERSONALIZED_FEEDBACK';
  const noted = useRef(false);
  useEffect(() => {
    if (noted.current) return;
    noted.current = true;
    void stampAttempt(attempt.id, 'score-accessed').catch(() => undefined);
  }, [attempt.id]);

  async function finish(next: string | null) {
    await stampAttempt(attempt.id, 'finish').catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: participantKeys.dashboard });
    navigate(next ? `/participant/cases/${next}` : '/participant');
  }

  return (
    <Stack>
      <Alert color="teal" title={t('clinician.thankYouTitle')}>
        {t('clinician.thankYou')}
      </Alert>
      <Paper withBorder p="lg">
        <Group>
          <RingProgress
            size={110}
            thickness={11}
            sections={[{ value: result.score, color: result.score >= 70 ? 'teal.8' : 'orange.8' }]}
            label={
              <Text ta="center" fw={700} size="xl" data-testid="attempt-score">
                {result.score}%
              </Text>
            }
            aria-label={t('common.caseView.scoreLabel', { score: result.score })}
          />
          <Stack gap={2}>
            <Title order={2} size="h3">
              {attempt.case.patient_name}
            </Title>
            <Text>{t('clinician.yourScore', { score: result.score })}</Text>
          </Stack>
        </Group>
      </Paper>
      {result.questions.map((q, i) => (
        <QuestionResult key={q.question_id} index={i} question={q} personalised={personalised} />
      ))}
      {(result.explanation || !personalised) && (
        <Paper withBorder p="lg">
          <Title order={3} size="h4">
            {t('common.caseView.explanation')}
          </Title>
          <RichTextView html={result.explanation} />
        </Paper>
      )}
      {result.key_takeaways.length > 0 && (
        <Paper withBorder p="lg">
          <Title order={3} size="h4">
            {t('clinician.keyTakeaways')}
          </Title>
          <List size="sm">
            {result.key_takeaways.map((k) => (
              <List.Item key={k}>{k}</List.Item>
            ))}
          </List>
        </Paper>
      )}
      {result.references && (
        <Paper withBorder p="lg">
          <Title order={3} size="h4">
            {t('common.caseView.references')}
          </Title>
          <RichTextView html={result.references} />
        </Paper>
      )}
      <Group justify="flex-end">
        {attempt.next_case_id ? (
          <Button size="md" onClick={() => void finish(attempt.next_case_id)}>
            {t('clinician.nextCaseButton')}
          </Button>
        ) : null}
        <Button size="md" variant={attempt.next_case_id ? 'default' : 'filled'} onClick={() => void finish(null)}>
          {t('clinician.finish')}
        </Button>
      </Group>
    </Stack>
  );
}
