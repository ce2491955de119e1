import { useState } from 'react';
import { Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ModuleLibrary } from '@pss/contract';
import { CataloguePicker } from '../../components/catalogue-picker';
import { FormActions, FormError } from '../../components/form-parts';
import { saveErrors, type FieldErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useSaveModule } from './module-library-api';

/** Creates or edits a module library: its name, description and catalogues. */
export function ModuleFormModal(props: { module?: ModuleLibrary; onClose(saved?: ModuleLibrary): void }) {
  const { t } = useTranslation();
  const save = useSaveModule();
  const [name, setName] = useState(props.module?.name ?? '');
  const [description, setDescription] = useState(props.module?.description ?? '');
  const [diseaseTypes, setDiseaseTypes] = useState(props.module?.disease_types.map((d) => d.name) ?? []);
  const [categories, setCategories] = useState(props.module?.question_categories.map((c) => c.name) ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const title = props.module ? t('modules.editTitle') : t('modules.newTitle');

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    try {
      const saved = await save.mutateAsync({
        id: props.module?.id,
        body: { name, description: description || null, disease_types: diseaseTypes, question_categories: categories },
      });
      toastSuccess(t('modules.saved', { name: saved.name }));
      props.onClose(saved);
    } catch (error) {
      const result = saveErrors(error, t);
      setErrors(result.fields);
      setFormError(result.form);
    }
  }

  return (
    <Modal opened onClose={() => props.onClose()} title={title} centered size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput
            label={t('modules.name')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <Textarea
            label={t('modules.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            autosize
            minRows={2}
          />
          <CataloguePicker
            kind="disease-types"
            label={t('modules.diseaseTypes')}
            description={t('modules.catalogueHelp')}
            value={diseaseTypes}
            onChange={setDiseaseTypes}
            error={errors.disease_types}
          />
          <CataloguePicker
            kind="question-categories"
            label={t('modules.questionCategories')}
            description={t('modules.catalogueHelp')}
            value={categories}
            onChange={setCategories}
            error={errors.question_categories}
          />
          <FormError message={formError} />
          <FormActions saving={save.isPending} onCancel={() => props.onClose()} />
        </Stack>
      </form>
    </Modal>
  );
}
