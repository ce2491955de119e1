import { useState } from 'react';
import { Alert, Anchor, Button, Group, List, Skeleton, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import type { FieldIssue } from '@pss/contract';
import { ApiError, errorMessage } from '../../lib/api-error';
import { toastError } from '../../lib/toasts';
import { useCaseHome } from '../../lib/case-home';
import { CaseQuestions, CaseVignette, toAnswers, type AnswersState } from '../../components/case-answer-form';
import { caseImageQueryOptions, participantViewQueryOptions, useCreatePreview } from './cases-api';
import '../../lib/i18n/case';

/** An administrator takes the case as a participant would; the answers are scored and kept. */
export function TakePreviewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { caseId = '' } = useParams();
  const home = useCaseHome();
  const view = useQuery(participantViewQueryOptions(caseId));
  const image = useQuery(caseImageQueryOptions(caseId, 'preview', Boolean(view.data?.has_image)));
  const create = useCreatePreview();
  const [answers, setAnswers] = useState<AnswersState>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const base = `${home.casesPath}/case-details/${caseId}`;

  if (view.error) {
    const problems =
      view.error instanceof ApiError
        ? ((view.error.details as { fields?: FieldIssue[] } | undefined)?.fields ?? [])
        : [];
    return (
      <Alert color="red" role="alert" title={errorMessage(view.error, t)}>
        <List size="sm">
          {problems.map((p) => (
            <List.Item key={`${p.field}:${p.message}`}>{p.message}</List.Item>
          ))}
        </List>
        <Anchor component={Link} to={base} size="sm" c="red.9">
          {t('previews.backToCase')}
        </Anchor>
      </Alert>
    );
  }
  if (!view.data) return <Skeleton h={400} />;
  const data = view.data;

  async function submit() {
    try {
      const preview = await create.mutateAsync({ case_id: caseId, answers: toAnswers(data.questions, answers) });
      navigate(`${base}/previews/${preview.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.errorCode === 'VALIDATION_ERROR') {
        const fields = (error.details as { fields?: FieldIssue[] } | undefined)?.fields ?? [];
        setErrors(
          Object.fromEntries(fields.map((f) => [f.field.replace(/^body\./, ''), t('common.caseView.answerRequired')])),
        );
      }
      toastError(errorMessage(error, t));
    }
  }

  return (
    <Stack maw={860}>
      <Anchor component={Link} to={`${base}/previews`} size="sm">
        {t('previews.backToList')}
      </Anchor>
      <Title order={3}>{t('previews.takeTitle', { name: data.name })}</Title>
      <CaseVignette view={data} imageUrl={image.data} />
      <CaseQuestions
        view={data}
        answers={answers}
        errors={errors}
        onChange={(id, answer) => {
          setAnswers((current) => ({ ...current, [id]: answer }));
          setErrors({});
        }}
      />
      <Group justify="flex-end">
        <Button onClick={() => void submit()} loading={create.isPending}>
          {t('previews.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
