import { Alert, Button, Group } from '@mantine/core';
import { useTranslation } from '../lib/i18n';

/** The message for a whole form (what no single field explains), when there is one. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  );
}

/** Cancel and Save at the end of every dialog form; Save is busy while saving. */
export function FormActions({
  saving,
  onCancel,
  saveLabel,
  danger,
}: {
  saving: boolean;
  onCancel(): void;
  /** The submit button's text when it does more than save (Revoke). */
  saveLabel?: string;
  /** The submit cannot be undone: it is shown in red. */
  danger?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={saving} color={danger ? 'red' : undefined}>
        {saveLabel ?? t('common.save')}
      </Button>
    </Group>
  );
}
