import { useState } from 'react';
import { Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/i18n';
import { moduleBody, type ModuleBody, type ModuleLibrary } from '@pss/contract';
import { CataloguePicker } from '../../components/catalogue-picker';
import { FormActions, FormError } from '../../components/form-parts';
import { contractResolver, listFieldError, showSaveErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useSaveModule } from './module-library-api';

interface ModuleValues {
  name: string;
  description: string;
  disease_types: string[];
  question_categories: string[];
}

const toBody = (values: ModuleValues): ModuleBody => ({ ...values, description: values.description || null });

/** Creates or edits a module library: its name, description and catalogues. */
export function ModuleFormModal(props: { module?: ModuleLibrary; onClose(saved?: ModuleLibrary): void }) {
  const { t } = useTranslation();
  const save = useSaveModule();
  const form = useForm({
    initialValues: {
      name: props.module?.name ?? '',
      description: props.module?.description ?? '',
      disease_types: props.module?.disease_types.map((d) => d.name) ?? [],
      question_categories: props.module?.question_categories.map((c) => c.name) ?? [],
    },
    validate: contractResolver(moduleBody, t, toBody),
    transformValues: toBody,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const title = props.module ? t('modules.editTitle') : t('modules.newTitle');

  async function submit(body: ModuleBody) {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({ id: props.module?.id, body });
      toastSuccess(t('modules.saved', { name: saved.name }));
      props.onClose(saved);
    } catch (error) {
      setFormError(showSaveErrors(form, error, t));
    }
  }

  return (
    <Modal opened onClose={() => props.onClose()} title={title} centered size="lg">
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <TextInput label={t('modules.name')} required {...form.getInputProps('name')} data-autofocus />
          <Textarea label={t('modules.description')} {...form.getInputProps('description')} autosize minRows={2} />
          <CataloguePicker
            kind="disease-types"
            label={t('modules.diseaseTypes')}
            description={t('modules.catalogueHelp')}
            value={form.values.disease_types}
            onChange={(names) => form.setFieldValue('disease_types', names)}
            error={listFieldError(form.errors, 'disease_types')}
          />
          <CataloguePicker
            kind="question-categories"
            label={t('modules.questionCategories')}
            description={t('modules.catalogueHelp')}
            value={form.values.question_categories}
            onChange={(names) => form.setFieldValue('question_categories', names)}
            error={listFieldError(form.errors, 'question_categories')}
          />
          <FormError message={formError} />
          <FormActions saving={save.isPending} onCancel={() => props.onClose()} />
        </Stack>
      </form>
    </Modal>
  );
}
