import { Alert, Button } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/api-error';

/** A figure that could not be read says why where it would be, with a retry. */
export function FigureError(props: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" title={errorMessage(props.error, t)}>
      <Button size="xs" variant="light" color="red" onClick={props.onRetry}>
        {t('table.retry')}
      </Button>
    </Alert>
  );
}
