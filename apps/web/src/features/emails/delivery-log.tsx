import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import {
  emailDeliveryKinds,
  emailDeliverySortFields,
  emailDeliveryStatuses,
  type EmailDelivery,
  type EmailDeliveryKindValue,
  type EmailDeliveryStatusValue,
} from '@pss/contract';
import { DataTable, type Column } from '../../components/data-table';
import { formatDateTime, formatDay } from '../../lib/format';
import { useListState } from '../../lib/use-list-state';
import { useListTable } from '../../lib/use-list-table';
import { useUrlParam } from '../../lib/use-url-param';
import { errorMessage } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/toasts';
import { deliveriesQueryOptions, useResendDelivery, type DeliveryListParams } from './emails-api';
import { DeliveryStatus } from './delivery-status';

const isStatus = (value: string | null): value is EmailDeliveryStatusValue =>
  (emailDeliveryStatuses as readonly (string | null)[]).includes(value);
const isKind = (value: string | null): value is EmailDeliveryKindValue =>
  (emailDeliveryKinds as readonly (string | null)[]).includes(value);

/** The project's outbox: every email queued, sent, failed or cancelled, newest first. */
export function DeliveryLog({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const list = useListState({ sortable: emailDeliverySortFields });
  const [statusParam, setStatus] = useUrlParam('status');
  const [kindParam, setKind] = useUrlParam('kind');
  const filter: DeliveryListParams['filter'] = {
    ...(isStatus(statusParam) ? { status: statusParam } : {}),
    ...(isKind(kindParam) ? { kind: kindParam } : {}),
  };
  const deliveries = useQuery(deliveriesQueryOptions(projectId, { ...list.query, filter }));
  const filtered = Boolean(list.search || filter.status || filter.kind);
  const { table, search } = useListTable(list, deliveries, {
    empty: { none: t('emails.logEmpty'), noMatches: t('emails.logNoMatches') },
    filtered,
    // The log refreshes itself while emails are on their way.
    quietRefresh: true,
  });

  const columns: Column<EmailDelivery>[] = [
    {
      key: 'status',
      header: t('emails.status'),
      sortField: 'status',
      render: (d) => <DeliveryStatus status={d.status} />,
    },
    {
      key: 'recipient',
      header: t('emails.recipient'),
      render: (d) => (
        <div>
          <Text size="sm" c={d.participant ? undefined : 'dimmed'}>
            {d.participant ? `${d.participant.last_name}, ${d.participant.first_name}` : t('emails.testRecipient')}
          </Text>
          <Text size="xs" c="dimmed">
            {d.to}
          </Text>
        </div>
      ),
    },
    {
      key: 'email',
      header: t('emails.name'),
      render: (d) => (
        <div>
          <Text size="sm">{d.email_name}</Text>
          <Text size="xs" c="dimmed">
            {[
              t(`emails.kindValue.${d.kind}`),
              d.season_name,
              d.round_number === null ? null : t('emails.roundN', { n: d.round_number }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </div>
      ),
    },
    {
      key: 'scheduled_for',
      header: t('emails.scheduledFor'),
      sortField: 'scheduled_for',
      render: (d) => <NoWrap>{formatDay(d.scheduled_for)}</NoWrap>,
    },
    {
      key: 'queued_at',
      header: t('emails.queuedAt'),
      sortField: 'queued_at',
      render: (d) => <NoWrap>{formatDateTime(d.queued_at)}</NoWrap>,
    },
    { key: 'sent_at', header: t('emails.sentAt'), render: (d) => <NoWrap>{formatDateTime(d.sent_at)}</NoWrap> },
    { key: 'attempts', header: t('emails.attempts'), render: (d) => d.attempts },
    { key: 'last_error', header: t('emails.lastError'), render: (d) => <LastError delivery={d} /> },
    { key: 'resend', header: t('common.actions'), render: (d) => <ResendButton projectId={projectId} delivery={d} /> },
  ];

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <TextInput {...search} label={t('emails.searchAddress')} w={260} />
        <Select
          label={t('emails.status')}
          value={filter.status ?? 'all'}
          onChange={(value) => setStatus(value && value !== 'all' ? value : null)}
          data={[
            { value: 'all', label: t('common.all') },
            ...emailDeliveryStatuses.map((s) => ({ value: s, label: t(`emails.statusValue.${s}`) })),
          ]}
          allowDeselect={false}
          w={220}
        />
        <Select
          label={t('emails.kind')}
          value={filter.kind ?? 'all'}
          onChange={(value) => setKind(value && value !== 'all' ? value : null)}
          data={[
            { value: 'all', label: t('common.all') },
            ...emailDeliveryKinds.map((k) => ({ value: k, label: t(`emails.kindValue.${k}`) })),
          ]}
          allowDeselect={false}
          w={180}
        />
      </Group>
      <DataTable caption={t('emails.logCaption')} columns={columns} getRowId={(d) => d.id} {...table} />
    </Stack>
  );
}

const NoWrap = ({ children }: { children: string }) => <span style={{ whiteSpace: 'nowrap' }}>{children}</span>;

/**
 * Why an email did not go: for a failure the mail server's own message (spec: the server
 * message is shown for EMAILS_SEND_FAILED), else the catalogue's; for a cancelled one, why.
 */
function LastError({ delivery }: { delivery: EmailDelivery }) {
  const { t } = useTranslation();
  if (delivery.status === 'FAILED') {
    return (
      <Text size="sm" c="red.9" style={{ minWidth: 180, overflowWrap: 'break-word' }}>
        {delivery.last_error || t('errors.EMAILS_SEND_FAILED')}
      </Text>
    );
  }
  if (!delivery.last_error) return '—';
  return (
    <Text size="sm" c="dimmed" style={{ minWidth: 180, overflowWrap: 'break-word' }}>
      {delivery.last_error}
    </Text>
  );
}

/**
 * Any line of the log may be sent again by hand, once it has gone or failed (a test is sent
 * again with a new test send). The server refuses the rest too (EMAIL_STILL_PENDING).
 */
function ResendButton({ projectId, delivery }: { projectId: string; delivery: EmailDelivery }) {
  const { t } = useTranslation();
  const resend = useResendDelivery(projectId);
  if (delivery.kind === 'TEST' || !delivery.participant) return null;
  if (delivery.status === 'QUEUED' || delivery.status === 'SENDING') return null;
  return (
    <Button
      size="compact-sm"
      variant="subtle"
      loading={resend.isPending}
      aria-label={t('emails.resendFor', { email: delivery.email_name, to: delivery.to })}
      onClick={() =>
        resend.mutate(delivery.id, {
          onSuccess: () => toastSuccess(t('emails.resent')),
          onError: (error) => toastError(errorMessage(error, t)),
        })
      }
    >
      {t('emails.resend')}
    </Button>
  );
}
