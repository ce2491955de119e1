import { useState } from 'react';
import { Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/i18n';
import { FormActions, FormError } from '../../components/form-parts';
import {
  clientBody,
  clientFields,
  type Client,
  type ClientBody,
  type ClientFieldName,
  type ClientFieldSpec,
} from '@pss/contract';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useSaveClient } from './clients-api';
import { clientFieldHint, clientFieldLabel, clientFieldNames } from './client-fields-view';

type ClientValues = Record<ClientFieldName, string>;

const valuesOf = (client: Client | undefined) =>
  Object.fromEntries(clientFieldNames.map((name) => [name, client?.[name] ?? ''])) as ClientValues;

// A required field goes as typed (its check says what is wrong); any other trimmed, empty as null.
const toBody = (values: ClientValues) =>
  Object.fromEntries(
    clientFieldNames.map((name) => {
      const spec: ClientFieldSpec = clientFields[name];
      return [name, spec.required ? values[name] : values[name].trim() || null];
    }),
  ) as ClientBody;

/** How the browser takes each kind of value (its keyboard on a phone, its autofill). */
const inputType = { own: undefined, text: undefined, email: 'email', phone: 'tel' } as const;

/** Create or edit a client: its fields (client-fields.ts), the CAP ID unique among clients. */
export function ClientFormModal(props: {
  opened: boolean;
  client?: Client;
  onClose(): void;
  onSaved?(client: Client): void;
}) {
  const { t } = useTranslation();
  const save = useSaveClient();
  const form = useForm({
    initialValues: valuesOf(props.client),
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
          {clientFieldNames.map((name, index) => {
            const spec: ClientFieldSpec = clientFields[name];
            return (
              <TextInput
                key={name}
                type={inputType[spec.value]}
                label={clientFieldLabel(t, name)}
                description={clientFieldHint(t, name)}
                {...form.getInputProps(name)}
                required={spec.required}
                data-autofocus={index === 0 || undefined}
              />
            );
          })}
          <FormActions saving={save.isPending} onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
