import { useState, type FormEvent } from 'react';
import { Alert, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormActions, FormError } from '../../components/form-parts';
import { createProjectBody, updateProjectBody, type Project } from '@pss/contract';
import { saveErrors, zodFieldErrors, type FieldErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { CataloguePicker } from '../../components/catalogue-picker';
import { SeasonsEditor, type SeasonDraft } from './seasons-editor';
import { useSaveProject } from './projects-api';

/**
 * Create or edit a project: its name, disease types and question categories (at least one
 * of each, picked or typed), notes, and seasons with Rounds 1–4.
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
  const [name, setName] = useState(existing?.name ?? '');
  const [diseaseTypes, setDiseaseTypes] = useState<string[]>(existing?.disease_types.map((d) => d.name) ?? []);
  const [categories, setCategories] = useState<string[]>(existing?.question_categories.map((d) => d.name) ?? []);
  const [notes, setNotes] = useState(existing?.notes ?? '');
  const [seasons, setSeasons] = useState<SeasonDraft[]>(
    existing?.seasons.map((s) => ({
      id: s.id,
      name: s.name,
      rounds: s.rounds.map((r) => ({ number: r.number, start_date: r.start_date, end_date: r.end_date })),
    })) ?? [],
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const fields = {
      name,
      disease_types: diseaseTypes,
      question_categories: categories,
      notes: notes.trim() || null,
      seasons,
    };
    const checked = existing
      ? updateProjectBody.safeParse({ ...fields, status: existing.status })
      : createProjectBody.safeParse({ ...fields, client_id: props.clientId });
    if (!checked.success) {
      setErrors(zodFieldErrors(checked.error, t));
      return;
    }
    setErrors({});
    try {
      const saved = existing
        ? await save.mutateAsync({ id: existing.id, body: { ...fields, status: existing.status } })
        : await save.mutateAsync({ body: { ...fields, client_id: props.clientId } });
      toastSuccess(existing ? t('projects.saved') : t('projects.created', { name: saved.name }));
      props.onSaved?.(saved);
      props.onClose();
    } catch (error) {
      const result = saveErrors(error, t);
      setErrors(result.fields);
      setFormError(result.form);
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
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormError message={formError} />
          {Object.keys(errors).length > 0 && !formError && (
            <Alert color="red" role="alert">
              {t('errors.VALIDATION_ERROR')}
            </Alert>
          )}
          <TextInput
            label={t('projects.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required
            data-autofocus
          />
          <CataloguePicker
            kind="disease-types"
            label={t('projects.diseaseTypes')}
            description={t('projects.pickerHint')}
            value={diseaseTypes}
            onChange={setDiseaseTypes}
            error={errors.disease_types ?? errors['disease_types.0']}
          />
          <CataloguePicker
            kind="question-categories"
            label={t('projects.questionCategories')}
            description={t('projects.pickerHint')}
            value={categories}
            onChange={setCategories}
            error={errors.question_categories ?? errors['question_categories.0']}
          />
          <Textarea
            label={t('projects.notes')}
            value={notes}
            onChange={(e) => setNotes(e.currentTarget.value)}
            autosize
            minRows={2}
            error={errors.notes}
          />
          <SeasonsEditor value={seasons} onChange={setSeasons} errors={errors} />
          <FormActions saving={save.isPending} onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
