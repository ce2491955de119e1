import { useState, type FormEvent } from 'react';
import { Modal, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormActions, FormError } from '../../components/form-parts';
import { clientBody, type Client } from '@pss/contract';
import { saveErrors, zodFieldErrors, type FieldErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useSaveClient } from './clients-api';

/** Create or edit a client: name, CAP ID (unique among clients) and CAP status. */
export function ClientFormModal(props: {
  opened: boolean;
  client?: Client;
  onClose(): void;
  onSaved?(client: Client): void;
}) {
  const { t } = useTranslation();
  const save = useSaveClient();
  const [name, setName] = useState(props.client?.name ?? '');
  const [capId, setCapId] = useState(props.client?.cap_id ?? '');
  const [capStatus, setCapStatus] = useState(props.client?.cap_status ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = { name, cap_id: capId.trim() || null, cap_status: capStatus.trim() || null };
    const checked = clientBody.safeParse(body);
    setFormError(null);
    if (!checked.success) {
      setErrors(zodFieldErrors(checked.error, t));
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ id: props.client?.id, body });
      toastSuccess(props.client ? t('clients.saved') : t('clients.created', { name: saved.name }));
      props.onSaved?.(saved);
      props.onClose();
    } catch (error) {
      const { fields, form } = saveErrors(error, t, { CLIENT_CAP_ID_ALREADY_EXISTS: 'cap_id' });
      setErrors(fields);
      setFormError(form);
    }
  }

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.client ? t('clients.edit') : t('clients.new')}
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormError message={formError} />
          <TextInput
            label={t('clients.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required
            data-autofocus
          />
          <TextInput
            label={t('clients.capId')}
            description={t('clients.capIdHint')}
            value={capId}
            onChange={(e) => setCapId(e.currentTarget.value)}
            error={errors.cap_id}
          />
          <TextInput
            label={t('clients.capStatus')}
            value={capStatus}
            onChange={(e) => setCapStatus(e.currentTarget.value)}
            error={errors.cap_status}
          />
          <FormActions saving={save.isPending} onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
