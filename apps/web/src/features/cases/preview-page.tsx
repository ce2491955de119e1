import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, RingProgress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ChoiceLegend, QuestionResult } from '../../components/question-result';
import { RichTextView } from '../../components/rich-text-view';
import { errorMessage } from '../../lib/api-error';
import { formatDateTime } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toasts';
import { useCaseHome } from '../../lib/case-home';
import { previewQueryOptions, useDeletePreview } from './cases-api';
import '../../lib/i18n/case';

/** A preview's result: the score, each answer, and the feedback a participant would get. */
export function PreviewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { caseId = '', previewId = '' } = useParams();
  const home = useCaseHome();
  const preview = useQuery(previewQueryOptions(previewId));
  const remove = useDeletePreview();
  const [deleting, setDeleting] = useState(false);
  const base = `${home.casesPath}/case-details/${caseId}`;

  if (preview.error) return <Alert color="red" role="alert" title={errorMessage(preview.error, t)} />;
  if (!preview.data) return <Skeleton h={400} />;
  const p = preview.data;
  const personalised = p.feedback_type === 'PERSONALIZED_FEEDBACK';

  async function confirmDelete() {
    try {
      await remove.mutateAsync(previewId);
      toastSuccess(t('previews.deleted'));
      navigate(`${base}/previews`);
    } catch (error) {
      toastError(errorMessage(error, t));
      setDeleting(false);
    }
  }

  return (
    <Stack maw={860}>
      <Anchor component={Link} to={`${base}/previews`} size="sm">
        {t('previews.backToList')}
      </Anchor>
      <Group justify="space-between">
        <Title order={3}>{t('previews.resultTitle', { name: p.case_name })}</Title>
        <Button variant="subtle" color="red" onClick={() => setDeleting(true)}>
          {t('common.delete')}
        </Button>
      </Group>
      <Paper withBorder p="lg">
        <Group>
          <RingProgress
            size={120}
            thickness={12}
            sections={[{ value: p.score, color: p.score >= 70 ? 'teal.8' : 'orange.8' }]}
            label={
              <Text ta="center" fw={700} size="xl" data-testid="preview-score">
                {p.score}%
              </Text>
            }
            aria-label={t('common.caseView.scoreLabel', { score: p.score })}
          />
          <Stack gap={2}>
            <Text fw={600}>{t('previews.yourScore', { score: p.score })}</Text>
            <Text size="sm" c="dimmed">
              {t('previews.takenByOn', { name: p.taken_by.name, date: formatDateTime(p.completed_at) })}
            </Text>
            <Text size="sm">{t(`cases.feedbackTypes.${p.feedback_type}`)}</Text>
          </Stack>
        </Group>
      </Paper>
      <Title order={4}>{t('previews.answersTitle')}</Title>
      <ChoiceLegend questions={p.questions} personalised={personalised} />
      {p.questions.map((q, i) => (
        <QuestionResult key={q.question_id} index={i} question={q} personalised={personalised} />
      ))}
      {(p.explanation || !personalised) && (
        <Paper withBorder p="lg">
          <Title order={4}>{t('cases.fields.explanation')}</Title>
          <RichTextView html={p.explanation} />
        </Paper>
      )}
      {p.test_results && (
        <Paper withBorder p="lg">
          <Title order={4}>{t('cases.fields.test_results')}</Title>
          <RichTextView html={p.test_results} />
        </Paper>
      )}
      {p.references && (
        <Paper withBorder p="lg">
          <Title order={4}>{t('cases.fields.references')}</Title>
          <RichTextView html={p.references} />
        </Paper>
      )}
      <ConfirmDialog
        opened={deleting}
        title={t('previews.deleteTitle')}
        message={t('previews.deleteMessage')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(false)}
      />
    </Stack>
  );
}
