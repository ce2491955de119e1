import { useMemo, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  List,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import {
  surveyTemplateProblems,
  surveyTemplateTypes,
  type SurveyProfile,
  type SurveyTemplate,
  type SurveyTemplateTypeValue,
} from '@pss/contract';
import { LeaveGuard } from '../../components/leave-guard';
import { PageHeader } from '../../components/page-header';
import { SurveyView } from '../../components/survey-view';
import { errorMessage } from '../../lib/api-error';
import { saveErrors } from '../../lib/form-errors';
import { toastError, toastSuccess } from '../../lib/toasts';
import { SurveyBuilder } from './survey-builder';
import { builderFieldId, formFromTemplate, toBody, toPreview, type SurveyFormValues } from './survey-form';
import { linkedProjectsQueryOptions, surveyQueryOptions, useSaveSurvey } from './surveys-api';
import { isLocked, TemplateLockNotice } from './template-lock-notice';

/** Problems shown before a save is tried: what is wrong, not merely unfinished. */
const alwaysShown = new Set(['START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED', 'PAGE_NAME_NOT_UNIQUE']);

/** What the preview's info review shows in place of a participant's details. */
const sampleProfile: SurveyProfile = {
  user_id: '00000000-0000-4000-8000-000000000000',
  salutation: 'Dr.',
  first_name: 'Maria',
  last_name: 'Alvarez',
  display_name: 'Dr. Alvarez',
  profession: 'MD',
  specialty: 'Cardiology',
  facility: 'Northwind Clinic',
  npi: '1234567890',
  practice_number: 'P-100',
  mobile_number: '+1 555 0100',
};

/** `/survey-templates/{id}` and `/survey-templates/new?name=&type=`: the page builder with its live preview. */
export function SurveyTemplateEditorPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const [params] = useSearchParams();
  const saved = useQuery({ ...surveyQueryOptions(id ?? ''), enabled: Boolean(id) });
  if (!id) {
    const type = (surveyTemplateTypes as readonly string[]).includes(params.get('type') ?? '')
      ? (params.get('type') as SurveyTemplateTypeValue)
      : 'START_NEW';
    return <Editor key="new" initial={{ name: params.get('name') ?? '', type, pages: [] }} saved={null} />;
  }
  if (saved.error) {
    return (
      <Alert color="red" role="alert" title={errorMessage(saved.error, t)}>
        <Anchor component={Link} to="/survey-templates">
          {t('surveys.title')}
        </Anchor>
      </Alert>
    );
  }
  if (!saved.data) return <Skeleton h={400} />;
  return <Editor key={saved.data.id} initial={formFromTemplate(saved.data)} saved={saved.data} />;
}

function Editor(props: { initial: SurveyFormValues; saved: SurveyTemplate | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveSurvey();
  const form = useForm<SurveyFormValues>({ initialValues: props.initial });
  const [attempted, setAttempted] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const frozen = isLocked(props.saved);
  const values = form.values;
  const dirty = form.isDirty();

  const problems = useMemo(() => surveyTemplateProblems(toBody(values)), [values]);
  const shown = attempted ? problems : problems.filter((p) => p.errorCode && alwaysShown.has(p.errorCode));
  const errors = useMemo(
    () => ({
      ...serverErrors,
      ...Object.fromEntries(
        shown.map((p) => [
          p.field,
          p.errorCode && alwaysShown.has(p.errorCode) ? t(`errors.${p.errorCode}`) : p.message,
        ]),
      ),
    }),
    [shown, serverErrors, t],
  );

  async function submit() {
    setAttempted(true);
    setFormError(null);
    if (!values.name.trim()) {
      form.setFieldError('name', t('errors.FIELD_REQUIRED'));
      document.getElementById('survey-name')?.focus();
      return;
    }
    if (problems.length) {
      // An empty survey or page is said as itself; anything else is a wrong field.
      const empty = problems.some((p) => p.errorCode === 'SURVEY_EMPTY');
      toastError(t(empty ? 'errors.SURVEY_EMPTY' : 'errors.VALIDATION_ERROR'));
      document.getElementById('survey-problems')?.focus();
      return;
    }
    try {
      const result = await save.mutateAsync({ id: props.saved?.id, body: toBody(form.getValues()) });
      const next = formFromTemplate(result);
      form.setValues(next);
      form.resetDirty(next);
      setServerErrors({});
      setAttempted(false);
      if (!props.saved) {
        toastSuccess(t('surveys.created'));
        navigate(`/survey-templates/${result.id}`, { replace: true });
      } else toastSuccess(t('surveys.saved'));
    } catch (error) {
      const split = saveErrors(error, t);
      setServerErrors(split.fields);
      setFormError(split.form ?? errorMessage(error, t));
      toastError(errorMessage(error, t));
    }
  }

  const title = props.saved ? props.saved.name : t('surveys.newTitle');
  return (
    <Stack>
      <PageHeader
        title={title}
        crumbs={[{ label: t('surveys.title'), to: '/survey-templates' }, { label: title }]}
        action={
          !frozen && (
            <Button onClick={() => void submit()} loading={save.isPending}>
              {t('common.save')}
            </Button>
          )
        }
      />
      {frozen && props.saved && <TemplateLockNotice template={props.saved} />}
      {formError && (
        <Alert color="red" role="alert">
          {formError}
        </Alert>
      )}
      {shown.length > 0 && (
        <Alert color="red" id="survey-problems" tabIndex={-1} title={t('surveys.problems')}>
          <List size="sm">
            {shown.map((p) => (
              <List.Item key={p.field}>
                <Anchor href={`#${builderFieldId(p.field)}`} size="sm">
                  {errors[p.field]}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack>
            <Paper withBorder p="md">
              <Group align="flex-start" wrap="wrap">
                <TextInput
                  id="survey-name"
                  label={t('surveys.name')}
                  withAsterisk
                  readOnly={frozen}
                  style={{ flex: 1, minWidth: 220 }}
                  {...form.getInputProps('name')}
                />
                <Select
                  label={t('surveys.type')}
                  data={surveyTemplateTypes.map((value) => ({ value, label: t(`surveys.types.${value}`) }))}
                  allowDeselect={false}
                  readOnly={frozen}
                  w={260}
                  description={t(`surveys.typeHelp.${values.type}`)}
                  error={errors.type}
                  value={values.type}
                  onChange={(value) => value && form.setFieldValue('type', value as SurveyTemplateTypeValue)}
                />
              </Group>
            </Paper>
            <Title order={3} size="h4">
              {t('surveys.pages')}
            </Title>
            <SurveyBuilder form={form} errors={errors} readOnly={frozen} />
            {props.saved && <LinkedProjects id={props.saved.id} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="xs" style={{ position: 'sticky', top: 16 }} data-testid="survey-preview">
            <Group justify="space-between">
              <Title order={3} size="h4">
                {t('surveys.preview')}
              </Title>
              <Badge variant="light">{t(`surveys.types.${values.type}`)}</Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {t('surveys.previewHelp')}
            </Text>
            <SurveyView
              // A new page order or page count starts the preview again from its first page.
              key={values.pages.map((p) => p.id).join()}
              name={values.name || t('surveys.newTitle')}
              pages={toPreview(values)}
              profile={sampleProfile}
              preview
              onSave={() => Promise.resolve()}
            />
          </Stack>
        </Grid.Col>
      </Grid>
      <LeaveGuard
        dirty={dirty}
        saving={save.isPending}
        title={t('surveys.editorTitle')}
        message={t('surveys.project.unsaved')}
        confirmLabel={t('surveys.project.leave')}
      />
    </Stack>
  );
}

function LinkedProjects({ id }: { id: string }) {
  const { t } = useTranslation();
  const linked = useQuery(linkedProjectsQueryOptions(id));
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('surveys.linkedProjects')}
        </Title>
        {linked.error && <Text c="red.8">{errorMessage(linked.error, t)}</Text>}
        {linked.data?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('surveys.notLinked')}
          </Text>
        )}
        <List size="sm">
          {linked.data?.map((l) => (
            <List.Item key={l.project_id}>
              <Anchor
                component={Link}
                to={`/project-management/clients/${l.client_id}/projects/${l.project_id}/surveys`}
              >
                {l.client_name} › {l.project_name}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}
