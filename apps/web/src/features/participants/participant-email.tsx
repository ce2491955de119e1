import { Stack, Text } from '@mantine/core';
import type { EmailSuppressionReason } from '@pss/contract';
import { StatusBadge } from '../../components/status-badge';
import { useTranslation } from '../../lib/i18n';

/**
 * A participant's address, and why emails do not reach it when they do not: a bounce, a
 * complaint or an administrator's hand stop every email; their own unsubscribe stops this
 * project's reminders only (the launch and their link still go).
 */
export function ParticipantEmail(props: { email: string; state: EmailSuppressionReason | null }) {
  const { t } = useTranslation();
  if (!props.state) return props.email;
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{props.email}</Text>
      <StatusBadge color={props.state === 'UNSUBSCRIBED' ? 'gray' : 'red'}>
        {t(`participants.emailState.${props.state}`)}
      </StatusBadge>
    </Stack>
  );
}
