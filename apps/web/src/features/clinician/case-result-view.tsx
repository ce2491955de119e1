import { useEffect, useRef } from 'react';
import { Alert, Button, Group, List, Paper, RingProgress, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '../../lib/screen-router';
import type { Attempt, DueSurveys } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import { ChoiceLegend, QuestionResult } from '../../components/question-result';
import { RichTextView } from '../../components/rich-text-view';
import { strongTitle } from '../../lib/alert-contrast';
import { participantKeys, stampAttempt } from './clinician-api';
import { unsavedAnswers } from './answer-saver';
import { SurveyStep } from './lazy-survey-step';
import '../../lib/i18n/case';
import '../../lib/i18n/participant';

/** A long button label wraps on a phone instead of running out of its button. */
const wrappingLabel = {
  root: { height: 'auto', minHeight: 42 },
  label: { whiteSpace: 'normal' as const, textAlign: 'center' as const },
};

/** A submitted case: the score, each question's feedback, then the survey due, if any. */
export function CaseResultView({ attempt, due }: { attempt: Attempt; due: DueSurveys | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const result = attempt.result!;
  const personalised = result.feedback_type === 'PERSONALIZED_FEEDBACK';
  const noted = useRef(false);
  useEffect(() => {
    if (noted.current) return;
    noted.current = true;
    // Submitted: nothing of this attempt is left to send from this browser.
    unsavedAnswers.clear(attempt.id);
    void stampAttempt(attempt.id, 'score-accessed').catch(() => undefined);
  }, [attempt.id]);

  async function finish(next: string | null) {
    await stampAttempt(attempt.id, 'finish').catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: participantKeys.dashboard });
    navigate(next ? `/participant/cases/${next}` : '/participant');
  }

  return (
    <Stack>
      <Alert color="teal" title={t('participantPages.thankYouTitle')} styles={strongTitle('teal')}>
        {t('participantPages.thankYou')}
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
            <Text>{t('participantPages.yourScore', { score: result.score })}</Text>
          </Stack>
        </Group>
      </Paper>
      <ChoiceLegend questions={result.questions} personalised={personalised} />
      {result.questions.map((q, i) => (
        <QuestionResult key={q.question_id} index={i} question={q} personalised={personalised} />
      ))}
      {result.test_results && (
        <Paper withBorder p="lg">
          <Title order={3} size="h4">
            {t('common.caseView.testResults')}
          </Title>
          <RichTextView html={result.test_results} />
        </Paper>
      )}
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
            {t('participantPages.keyTakeaways')}
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
      {due?.review ? (
        <SurveyStep attemptId={attempt.id} survey={due.review} title={t('participantPages.surveyReview')} />
      ) : due?.end ? (
        <SurveyStep attemptId={attempt.id} survey={due.end} title={t('participantPages.surveyEnd')} />
      ) : null}
      <Group justify="flex-end">
        {attempt.next_case_id ? (
          <Button size="md" styles={wrappingLabel} onClick={() => void finish(attempt.next_case_id)}>
            {t('participantPages.nextCaseButton')}
          </Button>
        ) : null}
        <Button
          size="md"
          styles={wrappingLabel}
          variant={attempt.next_case_id ? 'default' : 'filled'}
          onClick={() => void finish(null)}
        >
          {t('participantPages.finish')}
        </Button>
      </Group>
    </Stack>
  );
}
