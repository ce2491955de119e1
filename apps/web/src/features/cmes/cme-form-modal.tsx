import { useState, type FormEvent } from 'react';
import { Checkbox, Modal, NumberInput, Stack, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormActions, FormError } from '../../components/form-parts';
import { updateCmeBody, type Cme } from '@pss/contract';
import { saveErrors, zodFieldErrors, type FieldErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useSaveCme } from './cmes-api';

export function CmeFormModal(props: { opened: boolean; projectId: string; cme?: Cme; onClose(): void }) {
  const { t } = useTranslation();
  const save = useSaveCme();
  const [minCases, setMinCases] = useState<number | string>(props.cme?.min_cases ?? 1);
  const [credits, setCredits] = useState<number | string>(props.cme?.credits ?? 1);
  const [moc, setMoc] = useState(props.cme?.moc ?? false);
  const [totera, setTotera] = useState(props.cme?.totera_course_id ?? '');
  const [custom, setCustom] = useState(props.cme?.custom ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = {
      min_cases: typeof minCases === 'number' ? minCases : Number.NaN,
      credits: typeof credits === 'number' ? credits : Number.NaN,
      moc,
      totera_course_id: totera.trim() || null,
      custom: custom.trim() || null,
    };
    const checked = updateCmeBody.safeParse(body);
    setFormError(null);
    if (!checked.success) {
      setErrors(zodFieldErrors(checked.error, t));
      return;
    }
    setErrors({});
    try {
      if (props.cme) await save.mutateAsync({ id: props.cme.id, body });
      else await save.mutateAsync({ body: { ...body, project_id: props.projectId } });
      toastSuccess(t('cmes.saved'));
      props.onClose();
    } catch (error) {
      const result = saveErrors(error, t);
      setErrors(result.fields);
      setFormError(result.form);
    }
  }

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.cme ? t('cmes.edit') : t('cmes.new')} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormError message={formError} />
          <NumberInput
            label={t('cmes.minCases')}
            value={minCases}
            onChange={setMinCases}
            min={0}
            allowDecimal={false}
            error={errors.min_cases}
            required
          />
          <NumberInput
            label={t('cmes.credits')}
            description={t('cmes.creditsHint')}
            value={credits}
            onChange={setCredits}
            min={0}
            step={0.25}
            decimalScale={2}
            error={errors.credits}
            required
          />
          <Checkbox label={t('cmes.moc')} checked={moc} onChange={(e) => setMoc(e.currentTarget.checked)} />
          <TextInput
            label={t('cmes.toteraCourseId')}
            value={totera}
            onChange={(e) => setTotera(e.currentTarget.value)}
            error={errors.totera_course_id}
          />
          <Textarea
            label={t('cmes.custom')}
            value={custom}
            onChange={(e) => setCustom(e.currentTarget.value)}
            autosize
            minRows={2}
            error={errors.custom}
          />
          <FormActions saving={save.isPending} onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
