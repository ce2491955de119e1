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
export function FormActions({ saving, onCancel }: { saving: boolean; onCancel(): void }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={saving}>
        {t('common.save')}
      </Button>
    </Group>
  );
}
