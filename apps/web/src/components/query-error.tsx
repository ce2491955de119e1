import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import { ApiError, errorMessage } from '../lib/api-error';
import { Link } from '../lib/screen-router';
import { useHomePath } from '../lib/session/session-provider';

/**
 * A read that failed, shown where its content would be: what went wrong and a button that
 * tries again. Screens, tables (components/data-table.tsx), figures and dialogs all use it.
 * What is not there or not the caller's to see (404, 403) will not come by trying again: it
 * offers the way to the caller's start page instead (a client's page opened by another
 * client's administrator, a deleted project, a link to something gone).
 */
export function QueryError(props: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  const home = useHomePath();
  const gone = props.error instanceof ApiError && (props.error.status === 404 || props.error.status === 403);
  return (
    <Alert color="red" role="alert" title={errorMessage(props.error, t)}>
      {gone ? (
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('table.goneHelp')}</Text>
          <Button component={Link} to={home} size="xs" variant="light" color="red">
            {t('table.goHome')}
          </Button>
        </Stack>
      ) : (
        <Button size="xs" variant="light" color="red" onClick={props.onRetry}>
          {t('table.retry')}
        </Button>
      )}
    </Alert>
  );
}
