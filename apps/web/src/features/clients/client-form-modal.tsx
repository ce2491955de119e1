import { useState } from 'react';
import { Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/i18n';
import { FormActions, FormError } from '../../components/form-parts';
import { clientBody, type Client, type ClientBody } from '@pss/contract';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useSaveClient } from './clients-api';

interface ClientValues {
  name: string;
  cap_id: string;
  cap_status: string;
  support_email: string;
  support_phone: string;
}

const toBody = (values: ClientValues): ClientBody => ({
  name: values.name,
  cap_id: values.cap_id.trim() || null,
  cap_status: values.cap_status.trim() || null,
  support_email: values.support_email.trim() || null,
  support_phone: values.support_phone.trim() || null,
});

/** Create or edit a client: name, CAP ID (unique among clients), CAP status and support contact. */
export function ClientFormModal(props: {
  opened: boolean;
  client?: Client;
  onClose(): void;
  onSaved?(client: Client): void;
}) {
  const { t } = useTranslation();
  const save = useSaveClient();
  const form = useForm({
    initialValues: {
      name: props.client?.name ?? '',
      cap_id: props.client?.cap_id ?? '',
      cap_status: props.client?.cap_status ?? '',
      support_email: props.client?.support_email ?? '',
      support_phone: props.client?.support_phone ?? '',
    },
    validate: contractResolver(clientBody, t, toBody),
    transformValues: toBody,
  });
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(body: ClientBody) {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({ id: props.client?.id, body });
      toastSuccess(props.client ? t('clients.saved') : t('clients.created', { name: saved.name }));
      props.onSaved?.(saved);
      props.onClose();
    } catch (error) {
      setFormError(showSaveErrors(form, error, t, { CLIENT_CAP_ID_ALREADY_EXISTS: 'cap_id' }));
    }
  }

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.client ? t('clients.edit') : t('clients.new')}
      centered
    >
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <FormError message={formError} />
          <TextInput label={t('clients.name')} {...form.getInputProps('name')} required data-autofocus />
          <TextInput
            label={t('clients.capId')}
            description={t('clients.capIdHint')}
            {...form.getInputProps('cap_id')}
          />
          <TextInput label={t('clients.capStatus')} {...form.getInputProps('cap_status')} />
          <TextInput
            type="email"
            label={t('clients.supportEmail')}
            description={t('clients.supportEmailHint')}
            {...form.getInputProps('support_email')}
          />
          <TextInput
            type="tel"
            label={t('clients.supportPhone')}
            description={t('clients.supportPhoneHint')}
            {...form.getInputProps('support_phone')}
          />
          <FormActions saving={save.isPending} onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
