import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import {
  isBlankRichText,
  MAX_SUMMARY_GREETING,
  MAX_SUMMARY_TITLE,
  saveSeasonSummaryBody,
  type Project,
  type SaveSeasonSummaryBody,
  type SeasonSummary,
} from '@pss/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LeaveGuard } from '../../components/leave-guard';
import { RichTextField } from '../../components/lazy-rich-text-field';
import { StatusBadge } from '../../components/status-badge';
import { errorMessage } from '../../lib/api-error';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { formatDateTime } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toasts';
import { seasonSummaryQueryOptions, useSaveSeasonSummary, useSeasonSummaryStatus } from './season-summaries-api';
import { SummaryFileField } from './summary-file-field';

interface SummaryForm {
  title: string;
  description: string;
  greeting: string;
  video_url: string;
}

const toForm = (summary: SeasonSummary | null): SummaryForm => ({
  title: summary?.title ?? '',
  description: summary?.description ?? '',
  greeting: summary?.greeting ?? '',
  video_url: summary?.video_url ?? '',
});

/** The request body: a blank description as '', no link as null (the schema trims the texts and says why a title is refused). */
const toBody = (values: SummaryForm): SaveSeasonSummaryBody => ({
  title: values.title,
  description: isBlankRichText(values.description) ? '' : values.description,
  greeting: values.greeting.trim(),
  video_url: values.video_url.trim() || null,
});

const fieldId = (field: string) => `summary-${field}`;

/**
 * The Season Results Summary editor (spec: `.../progress/edit/{id}`). The route's `{id}` is
 * the season's id: a season has at most one summary, which does not exist until its first
 * save, so the season is what the screen can always be opened for (the calls name it by
 * `seasonName`, the status call by the summary's own id).
 */
export function SeasonSummaryPage() {
  const { t } = useTranslation();
  const { id: seasonId } = useParams();
  const { project } = useOutletContext<{ project: Project }>();
  const season = project.seasons.find((s) => s.id === seasonId);
  const query = useQuery(seasonSummaryQueryOptions(project.id, season?.name ?? ''));
  const progressPath = `/project-management/clients/${project.client_id}/projects/${project.id}/progress`;

  if (!season) {
    return (
      <Alert color="red" role="alert" title={t('seasonSummaries.noSeason')}>
        <Anchor component={Link} to={progressPath} c="red.9">
          {t('seasonSummaries.backToProgress')}
        </Anchor>
      </Alert>
    );
  }
  if (query.error) {
    return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (!query.data) return <Skeleton h={400} />;
  return (
    <SummaryEditor
      // A first save gives the summary its id: the form carries on, keyed by the season.
      key={season.id}
      projectId={project.id}
      seasonName={season.name}
      summary={query.data.summary}
      progressPath={progressPath}
    />
  );
}

function SummaryEditor(props: {
  projectId: string;
  seasonName: string;
  summary: SeasonSummary | null;
  progressPath: string;
}) {
  const { t } = useTranslation();
  const { summary, seasonName } = props;
  const form = useForm<SummaryForm>({
    mode: 'controlled',
    initialValues: toForm(summary),
    validate: contractResolver(saveSeasonSummaryBody, t, toBody),
  });
  const save = useSaveSeasonSummary(props.projectId, seasonName);
  const status = useSeasonSummaryStatus(props.projectId, seasonName);
  const [confirming, setConfirming] = useState<'POSTED' | 'DRAFT' | null>(null);
  const dirty = form.isDirty();
  const posted = summary?.status === 'POSTED';

  /** Saves the form; answers the summary as saved, or null when refused (errors beside the fields). */
  async function saveForm(): Promise<SeasonSummary | null> {
    const checked = await form.validate();
    if (checked.hasErrors) {
      toastError(t('errors.VALIDATION_ERROR'));
      document.getElementById(fieldId(Object.keys(checked.errors)[0]!))?.focus();
      return null;
    }
    try {
      const saved = await save.mutateAsync(toBody(form.getValues()));
      const next = toForm(saved);
      form.setValues(next);
      form.resetDirty(next);
      toastSuccess(t('seasonSummaries.saved'));
      return saved;
    } catch (error) {
      const message = showSaveErrors(form, error, t);
      toastError(message ?? t('errors.VALIDATION_ERROR'));
      return null;
    }
  }

  async function changeStatus(next: 'POSTED' | 'DRAFT') {
    const saved = dirty || !summary ? await saveForm() : summary;
    if (!saved) return setConfirming(null);
    try {
      await status.mutateAsync({ id: saved.id, status: next });
      toastSuccess(next === 'POSTED' ? t('seasonSummaries.posted') : t('seasonSummaries.takenDown'));
    } catch (error) {
      toastError(errorMessage(error, t));
    }
    setConfirming(null);
  }

  const fileBlocked = summary ? null : t('seasonSummaries.saveFirst');
  return (
    <Stack gap="lg">
      <Paper withBorder p="md" pos="sticky" top="var(--app-shell-header-offset, 0px)" style={{ zIndex: 5 }}>
        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Anchor component={Link} to={props.progressPath} size="sm">
              {t('seasonSummaries.backToProgress')}
            </Anchor>
            <Title order={3}>{t('seasonSummaries.titleFor', { season: seasonName })}</Title>
            <StatusBadge color={posted ? 'teal' : 'gray'} data-testid="summary-status">
              {t(`seasonSummaries.status.${summary?.status ?? 'DRAFT'}`)}
            </StatusBadge>
            {dirty && (
              <Text size="sm" c="red.9" data-testid="unsaved">
                {t('seasonSummaries.unsaved')}
              </Text>
            )}
          </Group>
          <Group gap="xs">
            <Button
              variant="default"
              type="submit"
              form="season-summary-form"
              loading={save.isPending && !confirming}
              disabled={!dirty}
            >
              {t('common.save')}
            </Button>
            {posted ? (
              <Button variant="default" onClick={() => setConfirming('DRAFT')}>
                {t('seasonSummaries.takeDown')}
              </Button>
            ) : (
              <Button onClick={() => setConfirming('POSTED')} disabled={!summary && !dirty}>
                {t('seasonSummaries.post')}
              </Button>
            )}
          </Group>
        </Group>
      </Paper>
      <Text size="sm" c="dimmed">
        {t('seasonSummaries.help')}
        {posted && summary?.posted_at && (
          <> {t('seasonSummaries.postedOn', { date: formatDateTime(summary.posted_at) })}</>
        )}
      </Text>

      <form
        id="season-summary-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void saveForm();
        }}
      >
        <Stack gap="lg">
          <Paper withBorder p="lg" component="section" aria-labelledby="summary-section-title">
            <Stack>
              <Title order={4} id="summary-section-title">
                {t('seasonSummaries.summarySection')}
              </Title>
              <TextInput
                id={fieldId('title')}
                label={t('seasonSummaries.fields.title')}
                required
                maxLength={MAX_SUMMARY_TITLE}
                {...form.getInputProps('title')}
              />
              <RichTextField
                id={fieldId('description')}
                label={t('seasonSummaries.fields.description')}
                value={form.values.description}
                error={form.errors.description as string | undefined}
                minHeight={160}
                onChange={(html) => form.setFieldValue('description', html)}
              />
              <Textarea
                id={fieldId('greeting')}
                label={t('seasonSummaries.fields.greeting')}
                description={t('seasonSummaries.greetingHelp')}
                autosize
                minRows={2}
                maxLength={MAX_SUMMARY_GREETING}
                {...form.getInputProps('greeting')}
              />
            </Stack>
          </Paper>

          <SummaryFileField
            kind="sheet"
            projectId={props.projectId}
            seasonName={seasonName}
            summary={summary}
            blockedBy={fileBlocked}
          />

          <SummaryFileField
            kind="video"
            projectId={props.projectId}
            seasonName={seasonName}
            summary={summary}
            blockedBy={fileBlocked ?? (summary?.video_url ? t('seasonSummaries.linkInsteadOfUpload') : null)}
          >
            <TextInput
              id={fieldId('video_url')}
              type="url"
              label={t('seasonSummaries.fields.video_url')}
              description={
                summary?.video ? t('seasonSummaries.uploadInsteadOfLink') : t('seasonSummaries.videoUrlHelp')
              }
              placeholder="https://"
              disabled={Boolean(summary?.video)}
              {...form.getInputProps('video_url')}
            />
          </SummaryFileField>
        </Stack>
      </form>

      <ConfirmDialog
        opened={confirming === 'POSTED'}
        title={t('seasonSummaries.postTitle')}
        message={t('seasonSummaries.postMessage', { season: seasonName })}
        confirmLabel={t('seasonSummaries.post')}
        confirmColor="blue"
        busy={save.isPending || status.isPending}
        onConfirm={() => void changeStatus('POSTED')}
        onClose={() => setConfirming(null)}
      />
      <ConfirmDialog
        opened={confirming === 'DRAFT'}
        title={t('seasonSummaries.takeDownTitle')}
        message={t('seasonSummaries.takeDownMessage')}
        confirmLabel={t('seasonSummaries.takeDown')}
        busy={save.isPending || status.isPending}
        onConfirm={() => void changeStatus('DRAFT')}
        onClose={() => setConfirming(null)}
      />
      <LeaveGuard
        dirty={dirty}
        title={t('seasonSummaries.leaveTitle')}
        message={t('seasonSummaries.leaveMessage')}
        confirmLabel={t('seasonSummaries.leave')}
      />
    </Stack>
  );
}
