import { Stack, Text } from '@mantine/core';
import type { EmailDeliveryStatusValue } from '@pss/contract';
import { StatusBadge } from '../../components/status-badge';
import { useTranslation } from '../../lib/i18n';

export const deliveryStatusColor: Record<EmailDeliveryStatusValue, string> = {
  QUEUED: 'blue',
  SENDING: 'cyan',
  SENT: 'teal',
  FAILED: 'red',
  CANCELLED: 'gray',
  UNSENT: 'violet',
  SUPPRESSED: 'orange',
};

/** The statuses whose badge says only "Not sent": why is written beside it. */
const reasons = { UNSENT: 'noMailServer', SUPPRESSED: 'suppressed' } as const;

/**
 * An email's delivery status in the log: a short badge, and for an email not sent, the reason
 * as text beneath it (in the badge it was cut to "NOT SENT (NO MAIL…" in a table column).
 */
export function DeliveryStatus({ status }: { status: EmailDeliveryStatusValue }) {
  const { t } = useTranslation();
  const reason = status === 'UNSENT' || status === 'SUPPRESSED' ? reasons[status] : null;
  return (
    <Stack gap={2} align="flex-start">
      {/* Never narrower than its words: a badge's label is otherwise cut to fit its column. */}
      <StatusBadge color={deliveryStatusColor[status]} miw="max-content" data-testid="delivery-status">
        {t(`emails.statusBadge.${status}`)}
      </StatusBadge>
      {reason && (
        <Text size="xs" c="dimmed" maw={160}>
          {t(`emails.statusReason.${reason}`)}
        </Text>
      )}
    </Stack>
  );
}
