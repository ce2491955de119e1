import { useState } from 'react';
import { Checkbox, Modal, NumberInput, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/i18n';
import { FormActions, FormError } from '../../components/form-parts';
import { createCmeBody, updateCmeBody, type Cme, type UpdateCmeBody } from '@pss/contract';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useSaveCme } from './cmes-api';

interface CmeValues {
  min_cases: number | string;
  credits: number | string;
  moc: boolean;
  totera_course_id: string;
  custom: string;
}

// A number input left empty holds '': not a number, so the schema refuses it.
const toBody = (values: CmeValues): UpdateCmeBody => ({
  min_cases: typeof values.min_cases === 'number' ? values.min_cases : Number.NaN,
  credits: typeof values.credits === 'number' ? values.credits : Number.NaN,
  moc: values.moc,
  totera_course_id: values.totera_course_id.trim() || null,
  custom: values.custom.trim() || null,
});

export function CmeFormModal(props: { opened: boolean; projectId: string; cme?: Cme; onClose(): void }) {
  const { t } = useTranslation();
  const save = useSaveCme();
  const form = useForm<CmeValues, UpdateCmeBody>({
    initialValues: {
      min_cases: props.cme?.min_cases ?? 1,
      credits: props.cme?.credits ?? 1,
      moc: props.cme?.moc ?? false,
      totera_course_id: props.cme?.totera_course_id ?? '',
      custom: props.cme?.custom ?? '',
    },
    validate: props.cme
      ? contractResolver(updateCmeBody, t, toBody)
      : contractResolver(createCmeBody, t, (values: CmeValues) => ({ ...toBody(values), project_id: props.projectId })),
    transformValues: toBody,
  });
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(body: UpdateCmeBody) {
    setFormError(null);
    try {
      if (props.cme) await save.mutateAsync({ id: props.cme.id, body });
      else await save.mutateAsync({ body: { ...body, project_id: props.projectId } });
      toastSuccess(t('cmes.saved'));
      props.onClose();
    } catch (error) {
      setFormError(showSaveErrors(form, error, t));
    }
  }

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.cme ? t('cmes.edit') : t('cmes.new')} centered>
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <FormError message={formError} />
          <NumberInput
            label={t('cmes.minCases')}
            {...form.getInputProps('min_cases')}
            min={0}
            allowDecimal={false}
            required
          />
          <NumberInput
            label={t('cmes.credits')}
            description={t('cmes.creditsHint')}
            {...form.getInputProps('credits')}
            min={0}
            step={0.25}
            decimalScale={2}
            required
          />
          <Checkbox label={t('cmes.moc')} {...form.getInputProps('moc', { type: 'checkbox' })} />
          <TextInput label={t('cmes.toteraCourseId')} {...form.getInputProps('totera_course_id')} />
          <Textarea label={t('cmes.custom')} {...form.getInputProps('custom')} autosize minRows={2} />
          <FormActions saving={save.isPending} onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
