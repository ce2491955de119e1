import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, TagsInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '../../lib/i18n';
import { MAX_TEST_RECIPIENTS, sendTestEmailBody, type SendTestEmailBody } from '@pss/contract';
import { FormError } from '../../components/form-parts';
import { contractResolver, showSaveErrors } from '../../lib/form-errors';
import { toastSuccess } from '../../lib/toasts';
import { useSendTestEmail } from './emails-api';

interface TestValues {
  emails: string[];
}

/** Codes of a refused test send that are about the addresses. */
const fieldOfCode = { TEST_EMAIL_RECIPIENT_REQUIRED: 'emails', INVALID_EMAIL: 'emails' };

/** Sends the saved email to a few addresses, filled with a sample participant's details. */
export function SendTestModal(props: {
  projectId: string;
  emailId: string;
  /** The editor has unsaved changes, which a test does not carry. */
  unsaved: boolean;
  initialEmails: string[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const send = useSendTestEmail(props.projectId);
  const form = useForm<TestValues, SendTestEmailBody>({
    initialValues: { emails: props.initialEmails },
    validate: contractResolver(sendTestEmailBody, t),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const emailsError = recipientsError(form.errors, form.values.emails);

  async function submit(values: TestValues) {
    setFormError(null);
    try {
      await send.mutateAsync({ id: props.emailId, body: { emails: values.emails.map((e) => e.trim()) } });
      toastSuccess(t('emails.testQueued'));
      props.onClose();
    } catch (error) {
      setFormError(showSaveErrors(form, error, t, fieldOfCode));
    }
  }

  return (
    <Modal opened onClose={props.onClose} title={t('emails.sendTestTitle')} centered>
      <form onSubmit={form.onSubmit(submit, () => setFormError(null))} noValidate>
        <Stack>
          <Text size="sm">{t('emails.sendTestSavedOnly')}</Text>
          {props.unsaved && <Alert color="orange">{t('emails.sendTestSaveFirst')}</Alert>}
          <FormError message={formError} />
          <TagsInput
            label={t('emails.testRecipients')}
            description={t('emails.testRecipientsHint', { max: MAX_TEST_RECIPIENTS })}
            value={form.values.emails}
            onChange={(value) => {
              form.setFieldValue('emails', value);
              form.clearErrors();
            }}
            error={emailsError}
            splitChars={[',', ';', ' ']}
            maxTags={MAX_TEST_RECIPIENTS}
            clearable
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={send.isPending}>
              {t('emails.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The recipients' message; for one address (`emails.2`), naming it. */
function recipientsError(errors: Record<string, unknown>, emails: string[]): string | undefined {
  const key = Object.keys(errors).find((k) => k === 'emails' || k.startsWith('emails.'));
  if (key === undefined) return undefined;
  const address = emails[Number(key.split('.')[1])];
  return address === undefined ? String(errors[key]) : `${address}: ${String(errors[key])}`;
}
