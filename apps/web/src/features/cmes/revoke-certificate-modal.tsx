import { useState } from 'react';
import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { revokeCertificateBody, type Certificate, type RevokeCertificateBody } from '@pss/contract';
import { FormActions, FormError } from '../../components/form-parts';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { useTranslation } from '../../lib/i18n';
import { toastSuccess } from '../../lib/toasts';
import { useRevokeCertificate } from './certificates-api';

/** Revokes one certificate; the reason is required and recorded with it. */
export function RevokeCertificateModal(props: { certificate: Certificate; onClose(): void }) {
  const { t } = useTranslation();
  const revoke = useRevokeCertificate();
  const form = useForm<RevokeCertificateBody>({
    initialValues: { reason: '' },
    validate: contractResolver(revokeCertificateBody, t, (values: RevokeCertificateBody) => values),
  });
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(body: RevokeCertificateBody) {
    setFormError(null);
    try {
      await revoke.mutateAsync({ id: props.certificate.id, reason: body.reason.trim() });
      toastSuccess(t('certificates.revokedDone'));
      props.onClose();
    } catch (error) {
      setFormError(showSaveErrors(form, error, t));
    }
  }

  return (
    <Modal opened onClose={props.onClose} title={t('certificates.revokeTitle')} centered>
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <FormError message={formError} />
          <Text size="sm">
            {t('certificates.revokeMessage', {
              name: props.certificate.participant_name,
              code: props.certificate.code,
            })}
          </Text>
          <Textarea
            label={t('certificates.reason')}
            description={t('certificates.reasonHint')}
            {...form.getInputProps('reason')}
            autosize
            minRows={3}
            maxLength={1000}
            required
            data-autofocus
          />
          <FormActions saving={revoke.isPending} onCancel={props.onClose} saveLabel={t('certificates.revoke')} danger />
        </Stack>
      </form>
    </Modal>
  );
}
