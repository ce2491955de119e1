import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, Menu, Paper, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import {
  projectSurveyFields,
  reportFormats,
  surveyFieldType,
  surveyTemplateTypes,
  type Project,
  type ProjectSurvey,
  type ProjectSurveyField,
} from '@pss/contract';
import { errorMessage } from '../../lib/api-error';
import { saveErrors } from '../../lib/form-errors';
import { useSession } from '../../lib/session/session-provider';
import { toastError, toastSuccess } from '../../lib/toasts';
import {
  downloadSurveyResponses,
  projectSurveyQueryOptions,
  surveyListQueryOptions,
  useSaveProjectSurvey,
} from './surveys-api';

type Choice = Record<ProjectSurveyField, string | null>;
const choiceOf = (s: ProjectSurvey): Choice => Object.fromEntries(projectSurveyFields.map((f) => [f, s[f]])) as Choice;

/** A project's Surveys section: one template per moment (new or returning participants' start, case review, end). */
export function ProjectSurveysPage() {
  const { project } = useOutletContext<{ project: Project }>();
  const current = useQuery(projectSurveyQueryOptions(project.id));
  if (current.error) {
    return <QueryError error={current.error} onRetry={() => void current.refetch()} />;
  }
  if (!current.data) return <Skeleton h={300} />;
  return (
    <Stack>
      <ProjectSurveysForm projectId={project.id} saved={current.data} />
      <SurveyResponses projectId={project.id} />
    </Stack>
  );
}

/** The survey-response report of each type, as CSV or XLSX. */
function SurveyResponses({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" maw={760}>
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h3">
            {t('surveys.project.responses')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('surveys.project.responsesHelp')}
          </Text>
        </Stack>
        <Group wrap="wrap">
          {surveyTemplateTypes.map((type) => (
            <Menu key={type} position="bottom-start">
              <Menu.Target>
                <Button variant="default">{t('surveys.project.download', { type: t(`surveys.types.${type}`) })}</Button>
              </Menu.Target>
              <Menu.Dropdown>
                {reportFormats.map((format) => (
                  <Menu.Item
                    key={format}
                    onClick={() =>
                      void downloadSurveyResponses(projectId, type, format).catch((error: unknown) =>
                        toastError(errorMessage(error, t)),
                      )
                    }
                  >
                    {t(`surveys.project.formats.${format}`)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}

function ProjectSurveysForm(props: { projectId: string; saved: ProjectSurvey }) {
  const { t } = useTranslation();
  const session = useSession();
  const save = useSaveProjectSurvey(props.projectId);
  const [choice, setChoice] = useState<Choice>(() => choiceOf(props.saved));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => setChoice(choiceOf(props.saved)), [props.saved]);
  const superadmin = session.state.status === 'signed-in' && session.state.user.role === 'superadmin';

  async function submit() {
    setFormError(null);
    setErrors({});
    try {
      await save.mutateAsync(choice);
      toastSuccess(t('surveys.project.saved'));
    } catch (error) {
      const split = saveErrors(error, t);
      const fields = (error as { details?: { fields?: { field: string }[] } }).details?.fields ?? [];
      // Codes that name a field (a template of the wrong type, one not found) go beside it.
      const named = Object.fromEntries(
        fields.map((f) => [f.field.replace(/^body\./, ''), errorMessage(error, t)] as const),
      );
      setErrors({ ...split.fields, ...named });
      if (!Object.keys(named).length && !Object.keys(split.fields).length) setFormError(split.form);
      toastError(errorMessage(error, t));
    }
  }

  return (
    <Paper withBorder p="md" maw={760}>
      <Stack>
        <Stack gap={2}>
          <Title order={2} size="h3">
            {t('surveys.project.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('surveys.project.help')}
          </Text>
        </Stack>
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        {projectSurveyFields.map((field) => (
          <TemplatePicker
            key={field}
            field={field}
            value={choice[field]}
            error={errors[field]}
            linkable={superadmin}
            onChange={(value) => {
              setChoice((c) => ({ ...c, [field]: value }));
              setErrors(({ [field]: _, ...rest }) => rest);
            }}
          />
        ))}
        <Group justify="flex-end">
          <Button onClick={() => void submit()} loading={save.isPending}>
            {t('surveys.project.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function TemplatePicker(props: {
  field: ProjectSurveyField;
  value: string | null;
  error?: string;
  linkable: boolean;
  onChange(value: string | null): void;
}) {
  const { t } = useTranslation();
  const type = surveyFieldType[props.field];
  const options = useQuery(surveyListQueryOptions({ page: 1, limit: 200, sort: 'name:ASC', filter: { type } }));
  const data = (options.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }));
  return (
    <Group align="flex-end" wrap="wrap">
      <Select
        label={t(`surveys.types.${type}`)}
        description={t(`surveys.typeHelp.${type}`)}
        placeholder={t('surveys.project.none')}
        data={data}
        value={props.value}
        onChange={props.onChange}
        error={props.error ?? (options.error ? errorMessage(options.error, t) : undefined)}
        searchable
        clearable
        style={{ flex: 1, minWidth: 240 }}
      />
      {props.linkable && props.value && (
        <Anchor component={Link} to={`/survey-templates/${props.value}`} size="sm" pb={8}>
          {t('surveys.project.openTemplate')}
        </Anchor>
      )}
    </Group>
  );
}
