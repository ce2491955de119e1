import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/i18n';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  /** The confirm button's colour: red for what is lost, the theme's for what is published. */
  confirmColor?: string;
  onConfirm(): void;
  onClose(): void;
}

/** The dialog itself; screens use ConfirmDialog (./confirm-dialog.tsx), which fetches it when first opened. */
export function ConfirmDialogModal(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Stack>
        <Text>{props.message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button color={props.confirmColor ?? 'red'} onClick={props.onConfirm} loading={props.busy}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
