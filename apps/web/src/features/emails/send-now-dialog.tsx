import { Alert, Button, Group, List, Modal, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { QueryError } from '../../components/query-error';
import type { EmailTemplate, SendEmailBody } from '@pss/contract';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { sendPreviewQueryOptions, useSendEmail } from './emails-api';

/** Every active participant of the project: the selection "Send now" makes. */
const everyone: SendEmailBody = { all: true, except: [], filter: {} };
/** Skipped participants listed by name; the rest are counted. */
const SHOWN_SKIPPED = 50;

/**
 * Sends an email now to the project's active participants for whom it is true today (the
 * server's rules: a start date that has come, a round with a case left to take, a posted
 * summary and a completed season). Before anything is sent it asks the server who would get
 * it and who is skipped and why, and lists them. A disabled email is not sent (the server
 * answers EMAIL_DISABLED): the dialog says so before anyone tries, and its send button stays off.
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
  const preview = useQuery(sendPreviewQueryOptions(props.template.id, everyone, !disabled));
  const send = useSendEmail(props.projectId);
  const count = preview.data?.recipients;
  const skipped = preview.data?.skipped ?? [];

  async function confirm() {
    try {
      const result = await send.mutateAsync({ id: props.template.id, body: everyone });
      const queued = t('emails.sendQueued', { count: result.queued });
      toastSuccess(
        result.skipped.length ? `${queued} ${t('emails.sendSkipped', { count: result.skipped.length })}` : queued,
      );
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
            {preview.error ? (
              <QueryError error={preview.error} onRetry={() => void preview.refetch()} />
            ) : count === undefined ? (
              <Skeleton h={40} />
            ) : (
              <>
                <Text>{count === 0 ? t('emails.sendNowNobody') : t('emails.sendNowMessage', { count })}</Text>
                {skipped.length > 0 && (
                  <Stack gap={4} data-testid="send-now-skipped">
                    <Text size="sm" fw={600} id="send-now-skipped-title">
                      {t('emails.sendNowSkipped', { count: skipped.length })}
                    </Text>
                    <ScrollArea.Autosize mah={240} type="auto">
                      <List size="sm" spacing={2} aria-labelledby="send-now-skipped-title">
                        {skipped.slice(0, SHOWN_SKIPPED).map((s) => (
                          <List.Item key={s.participant_id}>
                            {t('emails.sendNowSkippedLine', { name: s.name, reason: s.reason })}
                          </List.Item>
                        ))}
                      </List>
                    </ScrollArea.Autosize>
                    {skipped.length > SHOWN_SKIPPED && (
                      <Text size="sm" c="dimmed">
                        {t('emails.sendNowSkippedMore', { count: skipped.length - SHOWN_SKIPPED })}
                      </Text>
                    )}
                  </Stack>
                )}
              </>
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
