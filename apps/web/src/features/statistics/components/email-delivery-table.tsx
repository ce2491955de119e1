import { Alert, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { warningTitle } from '../../../lib/alert-contrast';
import { useTranslation } from '../../../lib/i18n';
import { emailDeliveryQueryOptions } from '../statistics-api';
import { formatRate } from '../progress-format';
import { FigureTable } from './figure-table';

/**
 * How the project's emails fared: each type's sent, bounced, complained and suppressed, the
 * participants who turned the reminders off, and a warning when more than 2 % bounce (the
 * figures are the project's, every season's: an address bounces whatever the season).
 */
export function EmailDeliveryTable(props: { projectId: string }) {
  const { t } = useTranslation();
  const query = useQuery(emailDeliveryQueryOptions(props.projectId));
  const stats = query.data;
  const columns = [
    t('progress.emailDelivery.email'),
    t('progress.emailDelivery.sent'),
    t('progress.emailDelivery.bounced'),
    t('progress.emailDelivery.complained'),
    t('progress.emailDelivery.suppressed'),
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="email-delivery-title">
      <Title order={4} id="email-delivery-title">
        {t('progress.emailDelivery.title')}
      </Title>
      {stats?.bounce_warning && (
        <Alert
          color="yellow"
          title={t('progress.emailDelivery.warningTitle')}
          data-testid="bounce-warning"
          styles={warningTitle}
        >
          {t('progress.emailDelivery.warning', { rate: formatRate(stats.bounce_rate) })}
        </Alert>
      )}
      <FigureTable
        caption={t('progress.emailDelivery.title')}
        columns={columns}
        rows={stats?.by_type}
        rowKey={(row) => row.email_type}
        cells={(row) => [row.email_name, row.sent, row.bounced, row.complained, row.suppressed]}
        error={query.error}
        onRetry={() => void query.refetch()}
        empty={stats?.by_type.length === 0 ? t('progress.emailDelivery.empty') : null}
        minWidth={560}
        testId="email-delivery"
      />
      {stats && stats.unsubscribed > 0 && (
        <Text size="sm" c="dimmed">
          {t('progress.emailDelivery.unsubscribed', { count: stats.unsubscribed })}
        </Text>
      )}
    </Stack>
  );
}
