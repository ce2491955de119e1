import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { ParticipantLink } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/format';

/**
 * A participant's new dashboard link, shown once: the server keeps it nowhere, so closing
 * this dialog is the last anyone sees of it. It signs the participant in once.
 */
export function ParticipantLinkModal(props: { name: string; link: ParticipantLink; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={props.onClose} title={t('participants.link.title', { name: props.name })} centered>
      <Stack>
        <Alert color="yellow" variant="light">
          {t('participants.link.explain', { name: props.name, expires: formatDateTime(props.link.expires_at) })}
        </Alert>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            label={t('participants.link.url')}
            value={props.link.url}
            readOnly
            style={{ flex: 1 }}
            data-autofocus
          />
          <CopyButton value={props.link.url}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
                {copied ? t('participants.link.copied') : t('participants.link.copyButton')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('participants.link.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
