import { Alert, Button } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import { errorMessage } from '../lib/api-error';

/**
 * A read that failed, shown where its content would be: what went wrong and a button that
 * tries again. Screens, tables (components/data-table.tsx), figures and dialogs all use it.
 */
export function QueryError(props: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" title={errorMessage(props.error, t)}>
      <Button size="xs" variant="light" color="red" onClick={props.onRetry}>
        {t('table.retry')}
      </Button>
    </Alert>
  );
}
