import { lazy, Suspense, useState } from 'react';
import { Alert, Anchor, Button, Group, List, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import type { Attempt, FieldIssue } from '@pss/contract';
import {
  CaseQuestions,
  CaseVignette,
  fromSaved,
  toAnswer,
  type AnswerState,
  type AnswersState,
} from '../../components/case-answer-form';
import { ApiError, errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { toastError } from '../../lib/toasts';
import {
  attemptQueryOptions,
  caseImageQueryOptions,
  dueSurveysQueryOptions,
  participantKeys,
  saveAnswer,
  useAttemptAction,
} from './clinician-api';
import { unsavedAnswers, useAnswerSaver, type SaveState } from './answer-saver';
import { SurveyStep } from './lazy-survey-step';
import { CaseResources } from './case-resources';
import '../../lib/i18n/case';
import '../../lib/i18n/participant';

/**
 * The feedback after submitting, with its score ring (and the ring's tooltip, which brings
 * Floating UI): shown once a case is submitted, so it loads then.
 */
const CaseResultView = lazy(async () => ({ default: (await import('./case-result-view')).CaseResultView }));

/** Free text is saved after a pause in typing; a choice at once. */
const TEXT_SAVE_DELAY_MS = 700;
/** `/participant/cases/{userSeasonRoundCaseId}`: take a case, answer by answer, then read the feedback. */
export function ParticipantCasePage() {
  const { t } = useTranslation();
  const { attemptId = '' } = useParams();
  const attempt = useQuery(attemptQueryOptions(attemptId));
  const surveys = useQuery(dueSurveysQueryOptions(attemptId));
  // The start survey's thanks is said at the top of the case that follows, not in a toast.
  const [surveySaved, setSurveySaved] = useState(false);
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
  if (!attempt.data || !attempt.isFetchedAfterMount || surveys.isPending) return <Skeleton h={400} />;
  if (attempt.data.result) {
    return (
      <Suspense fallback={<Skeleton h={400} />}>
        <CaseResultView attempt={attempt.data} due={surveys.data} />
      </Suspense>
    );
  }
  // A season past its last round takes no new answers: what was given is shown, read-only.
  if (attempt.data.closed) return <ClosedCase attempt={attempt.data} />;
  // The season's start survey comes before its first case.
  if (attempt.data.status === 'NOT_STARTED' && surveys.data?.start) {
    return (
      <Stack>
        <Anchor component={Link} to="/participant" size="sm">
          {t('clinician.backToDashboard')}
        </Anchor>
        <SurveyStep
          attemptId={attemptId}
          survey={surveys.data.start}
          title={t('participantPages.surveyBefore')}
          onCompleted={() => {
            setSurveySaved(true);
            window.scrollTo({ top: 0 });
          }}
        />
      </Stack>
    );
  }
  return <TakeCase key={attempt.data.id} attempt={attempt.data} surveySaved={surveySaved} />;
}

/** A case of an ended season, never submitted: its vignette and the answers given, which cannot change. */
function ClosedCase({ attempt }: { attempt: Attempt }) {
  const { t } = useTranslation();
  const answers = fromSaved(attempt.case.questions, attempt.answers);
  return (
    <Stack>
      <Anchor component={Link} to="/participant" size="sm">
        {t('clinician.backToDashboard')}
      </Anchor>
      <Alert color="gray" title={t('participantPages.closedTitle')}>
        {t('participantPages.closedCase', { date: formatDate(attempt.closes_on) })}
      </Alert>
      <Vignette attempt={attempt} />
      <CaseResources attemptId={attempt.id} />
      {/* A disabled fieldset disables every control inside it: the answers are shown, not taken. */}
      <fieldset disabled style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        <CaseQuestions view={attempt.case} answers={answers} errors={{}} onChange={() => undefined} />
      </fieldset>
    </Stack>
  );
}

/** The case's background with its patient image (fetched only when it has one). */
function Vignette({ attempt }: { attempt: Attempt }) {
  const image = useQuery(caseImageQueryOptions(attempt.case.id, attempt.case.has_image));
  return <CaseVignette view={attempt.case} imageUrl={image.data} />;
}

function TakeCase({ attempt, surveySaved }: { attempt: Attempt; surveySaved: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const start = useAttemptAction(attempt.id, 'start');
  const submit = useAttemptAction(attempt.id, 'submit');
  // Answers given on an earlier visit that never reached the server come back, and go now.
  const [restored] = useState(() => unsavedAnswers.read<AnswerState>(attempt.id));
  const [answers, setAnswers] = useState<AnswersState>(() => ({
    ...fromSaved(attempt.case.questions, attempt.answers),
    ...restored,
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const locked = attempt.unlocks_on > new Date().toISOString().slice(0, 10);
  const saver = useAnswerSaver<AnswerState>({
    attemptId: attempt.id,
    restored,
    send: (questionId, answer) => {
      const question = attempt.case.questions.find((q) => q.id === questionId);
      return question ? saveAnswer(attempt.id, toAnswer(question, answer)) : Promise.resolve();
    },
    reasonOf: (error) => errorMessage(error, t),
  });

  function change(questionId: string, answer: AnswerState) {
    setAnswers((current) => ({ ...current, [questionId]: answer }));
    setErrors((current) => {
      const index = attempt.case.questions.findIndex((q) => q.id === questionId);
      const { [`questions.${index}`]: _, ...rest } = current;
      return rest;
    });
    const question = attempt.case.questions.find((q) => q.id === questionId);
    const typed = question && (question.type === 'TEXT' || question.type === 'TYPE_AHEAD' || answer.other);
    saver.queue(questionId, answer, typed ? TEXT_SAVE_DELAY_MS : 0);
  }

  async function submitCase() {
    // Every answer must be on the server first; the save state says why when one is not.
    if (!(await saver.flush())) return;
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
        {surveySaved && (
          <Alert color="teal" role="status" data-testid="survey-saved">
            {t('participantPages.surveyThanks')}
          </Alert>
        )}
        <Vignette attempt={attempt} />
        <CaseResources attemptId={attempt.id} />
        {locked ? (
          <Alert color="gray">{t('participantPages.unlocksOn', { date: formatDate(attempt.unlocks_on) })}</Alert>
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
              {t('participantPages.startCase')}
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
      <Vignette attempt={attempt} />
      <CaseResources attemptId={attempt.id} />
      <CaseQuestions view={attempt.case} answers={answers} errors={errors} onChange={change} />
      {missing.length > 0 && (
        <Alert color="red" role="alert" title={t('participantPages.missingTitle')}>
          <List size="sm">
            {missing.map((m) => (
              <List.Item key={m}>{m}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Group justify="space-between" wrap="wrap">
        <SaveStatus state={saver.state} onRetry={() => void saver.retryNow()} />
        <Button size="md" onClick={() => void submitCase()} loading={submit.isPending}>
          {t('participantPages.submit')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The one place the page tells whether the answers are on the server. */
function SaveStatus({ state, onRetry }: { state: SaveState; onRetry(): void }) {
  const { t } = useTranslation();
  const failed = state.kind === 'offline' || state.kind === 'refused';
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" c={failed ? 'red.8' : 'dimmed'} aria-live="polite" data-testid="save-state">
        {state.kind === 'refused'
          ? t('participantPages.saveRefused', { reason: state.reason })
          : state.kind === 'offline'
            ? t('participantPages.saveOffline')
            : state.kind === 'saving'
              ? t('participantPages.saving')
              : t('participantPages.saved')}
      </Text>
      {failed && (
        <Button size="compact-sm" variant="light" color="red" onClick={onRetry}>
          {t('participantPages.retrySave')}
        </Button>
      )}
    </Group>
  );
}
