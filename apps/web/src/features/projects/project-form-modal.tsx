import { useState } from 'react';
import { Alert, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/i18n';
import { FormActions, FormError } from '../../components/form-parts';
import { createProjectBody, updateProjectBody, type Project } from '@pss/contract';
import { contractResolver, listFieldError, showSaveErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { CataloguePicker } from '../../components/catalogue-picker';
import { SeasonsEditor, type SeasonDraft } from './seasons-editor';
import { useSaveProject } from './projects-api';

interface ProjectValues {
  name: string;
  disease_types: string[];
  question_categories: string[];
  notes: string;
  support_email: string;
  support_phone: string;
  seasons: SeasonDraft[];
}
/** What create and update both send; each adds its own (the client, the status). */
type ProjectFields = Omit<ProjectValues, 'notes' | 'support_email' | 'support_phone'> & {
  notes: string | null;
  support_email: string | null;
  support_phone: string | null;
};

const toFields = (values: ProjectValues): ProjectFields => ({
  ...values,
  notes: values.notes.trim() || null,
  // Empty: the client's (else the platform's) is used.
  support_email: values.support_email.trim() || null,
  support_phone: values.support_phone.trim() || null,
});

/**
 * Create or edit a project: its name, disease types and question categories (at least one
 * of each, picked or typed), notes, its support contact (over its client's), and seasons with Rounds 1–4.
 */
export function ProjectFormModal(props: {
  opened: boolean;
  clientId: string;
  project?: Project;
  onClose(): void;
  onSaved?(project: Project): void;
}) {
  const { t } = useTranslation();
  const save = useSaveProject();
  const existing = props.project;
  const form = useForm<ProjectValues, ProjectFields>({
    initialValues: {
      name: existing?.name ?? '',
      disease_types: existing?.disease_types.map((d) => d.name) ?? [],
      question_categories: existing?.question_categories.map((d) => d.name) ?? [],
      notes: existing?.notes ?? '',
      support_email: existing?.support_email ?? '',
      support_phone: existing?.support_phone ?? '',
      seasons:
        existing?.seasons.map((s) => ({
          id: s.id,
          name: s.name,
          rounds: s.rounds.map((r) => ({ number: r.number, start_date: r.start_date, end_date: r.end_date })),
        })) ?? [],
    },
    validate: existing
      ? contractResolver(updateProjectBody, t, (values: ProjectValues) => ({
          ...toFields(values),
          status: existing.status,
        }))
      : contractResolver(createProjectBody, t, (values: ProjectValues) => ({
          ...toFields(values),
          client_id: props.clientId,
        })),
    transformValues: toFields,
  });
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(fields: ProjectFields) {
    setFormError(null);
    try {
      const saved = existing
        ? await save.mutateAsync({ id: existing.id, body: { ...fields, status: existing.status } })
        : await save.mutateAsync({ body: { ...fields, client_id: props.clientId } });
      toastSuccess(existing ? t('projects.saved') : t('projects.created', { name: saved.name }));
      props.onSaved?.(saved);
      props.onClose();
    } catch (error) {
      setFormError(showSaveErrors(form, error, t));
    }
  }

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={existing ? t('projects.edit') : t('projects.new')}
      size="xl"
      centered
    >
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <FormError message={formError} />
          {Object.keys(form.errors).length > 0 && !formError && (
            <Alert color="red" role="alert">
              {t('errors.VALIDATION_ERROR')}
            </Alert>
          )}
          <TextInput label={t('projects.name')} {...form.getInputProps('name')} required data-autofocus />
          <CataloguePicker
            kind="disease-types"
            label={t('projects.diseaseTypes')}
            description={t('projects.pickerHint')}
            value={form.values.disease_types}
            onChange={(names) => form.setFieldValue('disease_types', names)}
            error={listFieldError(form.errors, 'disease_types')}
          />
          <CataloguePicker
            kind="question-categories"
            label={t('projects.questionCategories')}
            description={t('projects.pickerHint')}
            value={form.values.question_categories}
            onChange={(names) => form.setFieldValue('question_categories', names)}
            error={listFieldError(form.errors, 'question_categories')}
          />
          <Textarea label={t('projects.notes')} {...form.getInputProps('notes')} autosize minRows={2} />
          <TextInput
            type="email"
            label={t('projects.supportEmail')}
            description={t('projects.supportEmailHint')}
            {...form.getInputProps('support_email')}
          />
          <TextInput
            type="tel"
            label={t('projects.supportPhone')}
            description={t('projects.supportPhoneHint')}
            {...form.getInputProps('support_phone')}
          />
          <SeasonsEditor form={form} />
          <FormActions saving={save.isPending} onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
