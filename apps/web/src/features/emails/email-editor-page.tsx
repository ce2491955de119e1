import { useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  Paper,
  Radio,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import type { Editor } from '@tiptap/react';
import { Link, useOutletContext, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import { emailSendModes, isCertificateEmail, isManualOnlyEmail, type EmailTemplate, type Project } from '@pss/contract';
import { LeaveGuard } from '../../components/leave-guard';
import { lazyDialog } from '../../components/lazy-dialog';
import { RichTextField } from '../../components/lazy-rich-text-field';
import { StatusBadge } from '../../components/status-badge';
import { useDeferredContractResolver } from '../../lib/deferred-contract-resolver';
import { showSaveErrors } from '../../lib/form-errors';
import { useSession } from '../../lib/session/session-provider';
import { toastError, toastSuccess } from '../../lib/toasts';
import { insertPlaceholder, toEmailForm, type EmailForm, type PlainTextField } from './email-form';
import { EmailPreview } from './email-preview';
import { emailTemplatesQueryOptions, useSaveEmail, type EmailSet } from './emails-api';
import { PlaceholderMenu } from './placeholder-menu';

const SendNowDialog = lazyDialog(async () => (await import('./send-now-dialog')).SendNowDialog);
const SendTestModal = lazyDialog(async () => (await import('./send-test-modal')).SendTestModal);

/**
 * The email editor, for a project email (`…/emails/edit/:emailId`) and for a season email
 * (`…/emails/editSeasonEmail/:seasonId/:emailId`: the specification's `{id}` is read as the
 * season, `{id2}` as the email, since a season's emails are listed by the season).
 */
export function EmailEditorPage() {
  const { t } = useTranslation();
  const { project } = useOutletContext<{ project: Project }>();
  const { emailId = '', seasonId } = useParams();
  const season = seasonId === undefined ? undefined : project.seasons.find((s) => s.id === seasonId);
  const set: EmailSet | null =
    seasonId === undefined ? { kind: 'project' } : season ? { kind: 'season', seasonName: season.name } : null;
  const templates = useQuery({
    ...emailTemplatesQueryOptions(project.id, set ?? { kind: 'project' }),
    enabled: set !== null,
  });
  const listPath = `/project-management/clients/${project.client_id}/projects/${project.id}/emails`;

  if (templates.error) {
    return <QueryError error={templates.error} onRetry={() => void templates.refetch()} />;
  }
  const template = templates.data?.items.find((e) => e.id === emailId);
  if (set === null || (templates.data && !template)) {
    return (
      <Alert color="gray" title={t('emails.notFound')}>
        <Anchor component={Link} to={listPath}>
          {t('emails.backToList')}
        </Anchor>
      </Alert>
    );
  }
  if (!template) return <Skeleton h={400} />;
  // Keyed by email: another email starts a fresh form.
  return (
    <EmailEditor
      key={template.id}
      saved={template}
      set={set}
      projectId={project.id}
      seasonName={season?.name}
      listPath={listPath}
    />
  );
}

function EmailEditor(props: {
  saved: EmailTemplate;
  set: EmailSet;
  projectId: string;
  seasonName: string | undefined;
  listPath: string;
}) {
  const { t } = useTranslation();
  const { state } = useSession();
  const schema = useDeferredContractResolver<EmailForm>((schemas) => schemas.saveEmailBody, t);
  const form = useForm<EmailForm>({
    mode: 'controlled',
    initialValues: toEmailForm(props.saved),
    validate: schema.validate,
  });
  const dirty = form.isDirty();
  const save = useSaveEmail(props.projectId, props.set);
  const [testing, setTesting] = useState(false);
  const [sending, setSending] = useState(false);
  const bodyEditor = useRef<Editor | null>(null);
  const inputs = {
    subject: useRef<HTMLInputElement>(null),
    button_text: useRef<HTMLInputElement>(null),
    dashboard_url_text: useRef<HTMLInputElement>(null),
  };

  async function saveForm() {
    await schema.ready();
    const checked = form.validate();
    if (checked.hasErrors) {
      toastError(t('errors.VALIDATION_ERROR'));
      focusFirstError(Object.keys(checked.errors));
      return;
    }
    try {
      // The server answers the saved email (its body sanitised): that is now the unchanged state.
      const next = toEmailForm(await save.mutateAsync({ id: props.saved.id, body: form.getValues() }));
      form.setValues(next);
      form.resetDirty(next);
      form.clearErrors();
      toastSuccess(t('emails.saved'));
    } catch (error) {
      const message = showSaveErrors(form, error, t);
      toastError(message ?? t('errors.VALIDATION_ERROR'));
    }
  }

  function focusFirstError(fields: string[]) {
    const first = fields[0];
    if (first === 'body') bodyEditor.current?.commands.focus();
    else if (first && first in inputs) inputs[first as PlainTextField].current?.focus();
  }

  function insertInto(field: PlainTextField, name: string) {
    const input = inputs[field].current;
    const { text, cursor } = insertPlaceholder(form.getValues()[field], name, {
      start: input?.selectionStart ?? null,
      end: input?.selectionEnd ?? null,
    });
    form.setFieldValue(field, text);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(cursor, cursor);
    });
  }

  function insertIntoBody(name: string) {
    // The editor keeps its selection while the menu is open; focusing it puts the cursor back.
    bodyEditor.current?.chain().focus().insertContent(`{${name}}`).run();
  }

  function textField(field: PlainTextField, label: string, description?: string) {
    return (
      <TextInput
        ref={inputs[field]}
        label={label}
        description={description}
        required={field !== 'dashboard_url_text'}
        {...form.getInputProps(field)}
        rightSection={<PlaceholderMenu fieldLabel={label} onPick={(name) => insertInto(field, name)} />}
        rightSectionPointerEvents="all"
      />
    );
  }

  const values = form.values;
  const manualOnly = isManualOnlyEmail(props.saved.type);
  // The Certificate Email names one certificate: the server refuses it by hand, so no "Send now".
  const certificateEmail = isCertificateEmail(props.saved.type);
  const signedInEmail = state.status === 'signed-in' ? [state.user.email] : [];
  return (
    <Stack gap="lg">
      {/* Sticky only where the screen has room for it beside the fields. */}
      <Paper
        withBorder
        p="md"
        pos={{ base: 'static', md: 'sticky' }}
        top="var(--app-shell-header-offset, 0px)"
        style={{ zIndex: 5 }}
      >
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2}>
            <Anchor component={Link} to={props.listPath} size="sm">
              {t('emails.backToList')}
            </Anchor>
            <Group gap="sm" wrap="wrap">
              <Title order={3}>{props.saved.name}</Title>
              {props.seasonName && (
                <StatusBadge color="gray">{t('emails.seasonVariant', { season: props.seasonName })}</StatusBadge>
              )}
              <StatusBadge color={props.saved.enabled ? 'teal' : 'gray'} data-testid="email-enabled">
                {props.saved.enabled ? t('emails.enabled') : t('emails.disabledBadge')}
              </StatusBadge>
              {dirty && (
                <Text size="sm" c="red.9" data-testid="unsaved">
                  {t('emails.unsaved')}
                </Text>
              )}
            </Group>
          </Stack>
          <Group gap="xs">
            <Button variant="default" onClick={() => setTesting(true)}>
              {t('emails.sendTest')}
            </Button>
            {!certificateEmail && (
              <Button variant="default" onClick={() => setSending(true)}>
                {t('emails.sendNow')}
              </Button>
            )}
            <Button onClick={() => void saveForm()} loading={save.isPending} disabled={!dirty}>
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      </Paper>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Paper withBorder p="md">
            <Stack>
              {textField('subject', t('emails.subject'))}
              <Stack gap={4}>
                <Group justify="flex-end">
                  <PlaceholderMenu asButton fieldLabel={t('emails.body')} onPick={insertIntoBody} />
                </Group>
                <RichTextField
                  id="email-body"
                  label={t('emails.body')}
                  description={t('emails.placeholderHint')}
                  value={values.body}
                  onChange={(html) => form.setFieldValue('body', html)}
                  error={form.errors.body ? String(form.errors.body) : null}
                  required
                  minHeight={220}
                  editorRef={bodyEditor}
                />
              </Stack>
              {textField('button_text', t('emails.buttonText'))}
              {textField('dashboard_url_text', t('emails.dashboardUrlText'), t('emails.dashboardUrlTextHint'))}
              <Radio.Group
                label={t('emails.sendMode')}
                // No schedule rule sends the manual-only ones: manual is their only mode, and the server
                // refuses another. The Certificate Email's modes need saying: manual means it is not sent.
                description={
                  manualOnly
                    ? t('emails.manualOnlyHint')
                    : certificateEmail
                      ? t('emails.certificateModeHint')
                      : undefined
                }
                {...form.getInputProps('send_mode')}
              >
                <Stack gap="xs" mt="xs">
                  {(manualOnly ? (['MANUAL'] as const) : emailSendModes).map((mode) => (
                    <Radio
                      key={mode}
                      value={mode}
                      label={t(`emails.sendModeValue.${mode}`)}
                      description={t(`emails.sendModeHint.${mode}`)}
                    />
                  ))}
                </Stack>
              </Radio.Group>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <EmailPreview projectId={props.projectId} emailId={props.saved.id} values={values} />
        </Grid.Col>
      </Grid>

      {testing && (
        <SendTestModal
          projectId={props.projectId}
          emailId={props.saved.id}
          unsaved={dirty}
          initialEmails={signedInEmail}
          onClose={() => setTesting(false)}
        />
      )}
      {sending && (
        <SendNowDialog
          projectId={props.projectId}
          template={props.saved}
          unsaved={dirty}
          onClose={() => setSending(false)}
        />
      )}
      <LeaveGuard
        dirty={dirty}
        title={t('emails.leaveTitle')}
        message={t('emails.leaveMessage')}
        confirmLabel={t('emails.leave')}
      />
    </Stack>
  );
}
