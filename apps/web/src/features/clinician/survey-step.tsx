import { Alert, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import type { ParticipantSurvey } from '@pss/contract';
import { SurveyView } from '../../components/survey-view';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { answerSurvey, correctProfile, participantKeys } from './clinician-api';
import '../../lib/i18n/participant';

/**
 * A survey due around a case, answered page by page: every page turn keeps the answers so
 * far on the server (a participant who leaves half-way finds them again), the last page
 * completes it. Then the case's due surveys are read again, and the next step shows.
 */
export function SurveyStep(props: {
  attemptId: string;
  survey: ParticipantSurvey;
  title: string;
  /** Called once the survey is complete, instead of the thanks toast. */
  onCompleted?: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { survey } = props;
  async function save(answers: Parameters<typeof answerSurvey>[2]['answers'], complete: boolean) {
    try {
      await answerSurvey(survey.template_id, props.attemptId, { answers, complete });
    } catch (error) {
      toastError(errorMessage(error, t));
      throw error;
    }
    if (complete) {
      // A page that says its thanks in place needs no toast over its content (on a phone it
      // covered what came next).
      if (props.onCompleted) props.onCompleted();
      else toastSuccess(t('participantPages.surveyThanks'));
      await queryClient.invalidateQueries({ queryKey: participantKeys.surveys(props.attemptId) });
    }
  }
  async function correct(field: 'display_name' | 'mobile_number', value: string) {
    try {
      await correctProfile(survey.profile!.user_id, field, value);
    } catch (error) {
      toastError(errorMessage(error, t));
      throw error;
    }
  }
  return (
    <Stack>
      <Alert color="blue" title={props.title} />
      <SurveyView
        key={survey.template_id}
        name={survey.name}
        pages={survey.pages}
        saved={survey.answers}
        profile={survey.profile}
        onSave={save}
        onProfileChange={correct}
      />
    </Stack>
  );
}
