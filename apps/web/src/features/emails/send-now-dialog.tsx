import { Alert, Button, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import type { EmailTemplate } from '@pss/contract';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { previewParticipantsQueryOptions, useSendEmail } from './emails-api';

/**
 * Sends an email now to every active participant of the project, after saying how many
 * that is (the count is read when the dialog opens, as the server will count). A disabled
 * email is not sent (the server answers EMAIL_DISABLED): the dialog says so before anyone
 * tries, and its send button stays off.
 */
export function SendNowDialog(props: {
  projectId: string;
  template: EmailTemplate;
  /** Opened from the editor with unsaved changes, which a send does not carry. */
  unsaved?: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const disabled = !props.template.enabled;
  const participants = useQuery({ ...previewParticipantsQueryOptions(props.projectId, ''), enabled: !disabled });
  const send = useSendEmail(props.projectId);
  const count = participants.data?.total;

  async function confirm() {
    try {
      const result = await send.mutateAsync({ id: props.template.id, body: { all: true, except: [], filter: {} } });
      toastSuccess(t('emails.sendQueued', { count: result.queued }));
      props.onClose();
    } catch (error) {
      toastError(errorMessage(error, t));
    }
  }

  return (
    <Modal opened onClose={props.onClose} title={t('emails.sendNowTitle', { name: props.template.name })} centered>
      <Stack>
        {disabled ? (
          <Alert color="gray" title={t('emails.sendNowDisabledTitle')}>
            <Text size="sm" id="send-now-disabled">
              {t('emails.sendNowDisabled')}
            </Text>
          </Alert>
        ) : (
          <>
            {props.unsaved && <Alert color="orange">{t('emails.sendUnsaved')}</Alert>}
            {participants.error ? (
              <QueryError error={participants.error} onRetry={() => void participants.refetch()} />
            ) : count === undefined ? (
              <Skeleton h={40} />
            ) : count === 0 ? (
              <Text>{t('emails.sendNowNobody')}</Text>
            ) : (
              <Text>{t('emails.sendNowMessage', { count })}</Text>
            )}
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose} data-autofocus={disabled || undefined}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={() => void confirm()}
            loading={send.isPending}
            disabled={disabled || !count}
            aria-describedby={disabled ? 'send-now-disabled' : undefined}
            data-autofocus={disabled ? undefined : true}
          >
            {t('emails.sendNowConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
