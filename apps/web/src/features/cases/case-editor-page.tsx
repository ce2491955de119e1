import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from '@mantine/form';
import { Alert, Anchor, Button, FileButton, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '../../lib/screen-router';
import { useCaseHome } from '../../lib/case-home';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import { caseProblems, type CaseDocument } from '@pss/contract';
import { LeaveGuard } from '../../components/leave-guard';
import { ApiError, errorMessage } from '../../lib/api-error';
import { useDeferredContractResolver } from '../../lib/deferred-contract-resolver';
import { showSaveErrors } from '../../lib/form-errors';
import { toastError, toastInfo, toastSuccess } from '../../lib/toasts';
import { CaseResourcesSection } from './case-resources-section';
import { BackgroundSection } from './case-background-section';
import { DetailsSectionsEditor, FeedbackSection, GroupersEditor } from './case-editor-sections';
import type { EditorErrors } from './case-editor-fields';
import { CaseProblems, focusField } from './case-problems';
import { mergeRtf, toForm, type CaseForm } from './case-form';
import { CaseStatusBadge } from './case-status-badge';
import { caseQueryOptions, useDuplicateCase, useReadRtf, useSaveCase, useSetCaseStatus } from './cases-api';
import { QuestionsEditor } from './questions-editor';
import { CaseViews } from './case-views';
import { PublishConfirm } from './publish-confirm';
import { useLiveSearchParams } from '../../lib/use-live-search-params';
import { HistorySection } from '../../components/history-section';

/** Case Setup: the whole case on one page, saved as one, checked before publishing. */
export function CaseEditorPage() {
  const { caseId = '' } = useParams();
  const query = useQuery(caseQueryOptions(caseId));
  if (query.error) {
    return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (!query.data) return <Skeleton h={400} />;
  // Keyed by case: another case starts a fresh form.
  return <CaseEditor key={query.data.id} saved={query.data} />;
}

function CaseEditor({ saved }: { saved: CaseDocument }) {
  const { t } = useTranslation();
  const [params, replaceParams] = useLiveSearchParams();
  const home = useCaseHome();
  // Saving a draft checks what the server checks (updateCaseBody); publishing asks for more (caseProblems).
  const schema = useDeferredContractResolver<CaseForm>((schemas) => schemas.updateCaseBody, t);
  const form = useForm<CaseForm>({
    mode: 'controlled',
    initialValues: toForm(saved),
    validate: schema.validate,
  });
  const values = form.values;
  const dirty = form.isDirty();
  // Problems are shown once publishing was refused (or asked for), then follow the edits.
  const [checking, setChecking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [justPublished, setJustPublished] = useState(false);
  const readOnlyNote = useRef<HTMLDivElement>(null);
  const save = useSaveCase(saved.id);
  const setStatus = useSetCaseStatus(saved.id);
  const readRtf = useReadRtf();
  const duplicate = useDuplicateCase();
  const navigate = useNavigate();
  const readOnly = saved.status !== 'DRAFT';
  const base = home.casesPath;
  // A project's case placed in a season has an item analysis (of its season's completed cases).
  const season = home.kind === 'project' ? (home.seasons.find((s) => s.id === saved.season_id) ?? null) : null;

  const projectFacts = useMemo(
    () => ({
      disease_type_ids: home.disease_types.map((d) => d.id),
      question_category_ids: home.question_categories.map((c) => c.id),
      season_rounds: Object.fromEntries(home.seasons.map((s) => [s.id, s.rounds.map((r) => r.number)])),
    }),
    [home],
  );
  const problems = useMemo(
    () => (checking ? caseProblems(values, projectFacts) : []),
    [checking, values, projectFacts],
  );
  const errors: EditorErrors = useMemo(() => {
    const map: EditorErrors = {};
    for (const [field, message] of Object.entries(form.errors)) map[field] = String(message);
    for (const issue of problems) map[issue.field] ??= issue.message;
    return map;
  }, [problems, form.errors]);

  /** Takes what the server answered as the form's values and as its unchanged state. */
  function load(doc: CaseDocument) {
    const next = toForm(doc);
    form.setValues(next);
    form.resetDirty(next);
  }

  async function saveForm(): Promise<boolean> {
    await schema.ready();
    const checked = form.validate();
    if (checked.hasErrors) {
      toastError(t('errors.VALIDATION_ERROR'));
      const first = Object.keys(checked.errors)[0];
      if (first) focusField(first);
      return false;
    }
    try {
      // Keep what is on screen (the server only adds ids and cleans rich text); take its ids.
      load(await save.mutateAsync(form.getValues()));
      form.clearErrors();
      return true;
    } catch (error) {
      showSaveErrors(form, error, t);
      toastError(errorMessage(error, t));
      return false;
    }
  }

  /** Publish pressed: the problems, if the case has any (a change is saved as a draft); else ask first. */
  async function askPublish() {
    setChecking(true);
    if (caseProblems(form.getValues(), projectFacts).length === 0) {
      setConfirming(true);
      return;
    }
    if (dirty && !(await saveForm())) return;
    requestAnimationFrame(() => document.getElementById('case-problems')?.focus());
  }

  async function publish() {
    setConfirming(false);
    if (dirty && !(await saveForm())) return;
    try {
      const published = await setStatus.mutateAsync('PUBLISHED');
      setChecking(false);
      toastSuccess(published.status === 'ACTIVE' ? t('cases.publishedActive') : t('cases.published'));
      setJustPublished(true);
    } catch (error) {
      if (!(error instanceof ApiError && error.errorCode === 'CASE_INVALID_FOR_PUBLISH'))
        toastError(errorMessage(error, t));
      document.getElementById('case-problems')?.focus();
    }
  }

  // Published from the foot of a long page: the change is at its top (the status, the read-only
  // note). Brought into view, and the note focused so that a screen reader reads it.
  useEffect(() => {
    if (!justPublished || !readOnly) return;
    window.scrollTo({ top: 0 });
    readOnlyNote.current?.focus({ preventScroll: true });
  }, [justPublished, readOnly]);

  async function unpublish() {
    try {
      load(await setStatus.mutateAsync('DRAFT'));
      toastSuccess(t('cases.backToDraft'));
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }

  async function duplicateCase() {
    if (dirty && !(await saveForm())) return;
    try {
      const copy = await duplicate.mutateAsync(saved.id);
      toastSuccess(t('cases.duplicated', { name: copy.name }));
      navigate(`${base}/case-details/${copy.id}`);
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }

  async function fillFromRtf(file: File | null) {
    if (!file) return;
    try {
      const merged = mergeRtf(form.getValues(), await readRtf.mutateAsync(file));
      form.setValues(merged.form);
      toastInfo(t('cases.rtfFilled', { count: merged.filled }));
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }

  const busy = save.isPending || setStatus.isPending;
  return (
    <Stack gap="lg">
      <Paper withBorder p="md" pos="sticky" top="var(--app-shell-header-offset, 0px)" style={{ zIndex: 5 }}>
        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Anchor component={Link} to={base} size="sm">
              {t('cases.backToList')}
            </Anchor>
            <Title order={3}>{values.name || t('cases.untitled')}</Title>
            <CaseStatusBadge status={saved.status} />
            {dirty && (
              // Red, not orange: orange.9 on white measured 4.29:1.
              <Text size="sm" c="red.9" data-testid="unsaved">
                {t('cases.unsaved')}
              </Text>
            )}
          </Group>
          <Group gap="xs">
            <Button variant="default" component={Link} to={`${base}/case-details/${saved.id}/previews`}>
              {t('cases.previews')}
            </Button>
            <Button variant="default" onClick={() => void duplicateCase()} loading={duplicate.isPending}>
              {t('cases.duplicate')}
            </Button>
            {readOnly ? (
              saved.status === 'PUBLISHED' && (
                <Button variant="default" onClick={() => void unpublish()} loading={setStatus.isPending}>
                  {t('cases.returnToDraft')}
                </Button>
              )
            ) : (
              <>
                <FileButton onChange={(file) => void fillFromRtf(file)} accept=".rtf,application/rtf,text/rtf">
                  {(props) => (
                    <Button {...props} variant="default" loading={readRtf.isPending}>
                      {t('cases.fillFromRtf')}
                    </Button>
                  )}
                </FileButton>
                <Button variant="default" onClick={() => void saveForm()} loading={save.isPending} disabled={!dirty}>
                  {t('common.save')}
                </Button>
                <Button onClick={() => void askPublish()} loading={busy && !save.isPending}>
                  {t('cases.publish')}
                </Button>
              </>
            )}
          </Group>
        </Group>
      </Paper>

      {params.get('newCase') === 'true' && (
        <Alert
          color="blue"
          title={t('cases.createdTitle')}
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => replaceParams((p) => (p.delete('newCase'), p))}
        >
          {t('cases.createdHelp')}
        </Alert>
      )}
      {readOnly && (
        <Alert color="gray" title={t('cases.readOnlyTitle')} data-testid="read-only" ref={readOnlyNote} tabIndex={-1}>
          {saved.status === 'ACTIVE' ? t('cases.readOnlyActive') : t('cases.readOnlyPublished')}
        </Alert>
      )}
      <CaseProblems problems={problems} form={values} />

      <CaseViews saved={saved} season={season}>
        <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="lg">
            <BackgroundSection form={form} saved={saved} home={home} errors={errors} readOnly={readOnly} />
            <DetailsSectionsEditor form={form} errors={errors} readOnly={readOnly} />
            <GroupersEditor form={form} errors={errors} readOnly={readOnly} />
            <QuestionsEditor form={form} home={home} errors={errors} readOnly={readOnly} />
            <FeedbackSection form={form} errors={errors} readOnly={readOnly} />
          </Stack>
        </fieldset>
        <CaseResourcesSection caseId={saved.id} readOnly={readOnly} />
        <HistorySection targetType="case" targetId={saved.id} version={saved.updated_at} />
      </CaseViews>
      {!readOnly && (
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void saveForm()} loading={save.isPending} disabled={!dirty}>
            {t('common.save')}
          </Button>
          <Button onClick={() => void askPublish()} loading={busy && !save.isPending}>
            {t('cases.publish')}
          </Button>
        </Group>
      )}
      <PublishConfirm
        opened={confirming}
        seasons={home.seasons}
        placement={values}
        busy={setStatus.isPending}
        onConfirm={() => void publish()}
        onClose={() => setConfirming(false)}
      />
      <LeaveGuard
        dirty={dirty}
        title={t('cases.leaveTitle')}
        message={t('cases.leaveMessage')}
        confirmLabel={t('cases.leave')}
      />
    </Stack>
  );
}
