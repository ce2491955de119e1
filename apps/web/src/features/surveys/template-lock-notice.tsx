import { Alert, Anchor, Button, List, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SurveyTemplate } from '@pss/contract';
import { errorMessage } from '../../lib/api-error';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate } from '../../lib/screen-router';
import { toastError, toastSuccess } from '../../lib/toasts';
import { linkedProjectsQueryOptions, useDuplicateSurvey } from './surveys-api';

/**
 * A template a project uses, or one participants answered, cannot change (the server answers
 * SURVEY_ALREADY_ATTACHED): the builder shows it read-only and says why here, with the projects
 * that hold it and the ways forward — choose another survey in those projects, or edit a copy.
 */
export const isLocked = (template: SurveyTemplate | null) =>
  Boolean(template && (template.answered || template.project_count > 0));

export function TemplateLockNotice({ template }: { template: SurveyTemplate }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const duplicate = useDuplicateSurvey();
  const linked = useQuery({ ...linkedProjectsQueryOptions(template.id), enabled: !template.answered });

  function duplicateToEdit() {
    duplicate.mutate(template.id, {
      onSuccess: (copy) => {
        toastSuccess(t('surveys.duplicated', { name: copy.name }));
        navigate(`/survey-templates/${copy.id}`);
      },
      onError: (error) => toastError(errorMessage(error, t)),
    });
  }

  return (
    <Alert
      color="gray"
      title={template.answered ? t('surveys.answeredTitle') : t('surveys.attachedTitle')}
      data-testid="survey-locked"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{template.answered ? t('surveys.frozen') : t('surveys.attached')}</Text>
        {linked.error && <Text c="red.8">{errorMessage(linked.error, t)}</Text>}
        {!template.answered && Boolean(linked.data?.length) && (
          <List size="sm">
            {linked.data?.map((l) => (
              <List.Item key={`${l.project_id}-${l.type}`}>
                <Anchor
                  component={Link}
                  to={`/project-management/clients/${l.client_id}/projects/${l.project_id}/surveys`}
                >
                  {l.client_name} › {l.project_name}
                </Anchor>{' '}
                ({t(`surveys.types.${l.type}`)})
              </List.Item>
            ))}
          </List>
        )}
        <Button size="sm" variant="default" loading={duplicate.isPending} onClick={duplicateToEdit}>
          {t('surveys.duplicateToEdit')}
        </Button>
      </Stack>
    </Alert>
  );
}
