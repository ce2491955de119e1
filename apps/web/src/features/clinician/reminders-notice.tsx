import { Alert, Button, Group, Text } from '@mantine/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { emailUnsubscribeRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
import { strongTitle } from '../../lib/alert-contrast';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { useTranslation } from '../../lib/i18n';
// The notice's texts are the account pages' (registered as this module loads), not the first screen's.
import '../../lib/i18n/account-pages';

export const remindersQueryOptions = () =>
  queryOptions({
    queryKey: ['participant', 'reminders'] as const,
    queryFn: ({ signal }) => call(emailUnsubscribeRoutes.reminders, {}, { signal }),
  });

/**
 * On a project's card of the dashboard: when the participant turned the project's reminder
 * emails off (the unsubscribe link of a reminder, issue #47), says so and since when, with a
 * button that turns them back on. Nothing shows while reminders are on.
 */
export function RemindersNotice({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const reminders = useQuery(remindersQueryOptions());
  const resume = useMutation({
    mutationFn: () => call(emailUnsubscribeRoutes.resumeReminders, { params: { projectId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersQueryOptions().queryKey }),
  });
  const off = reminders.data?.off.find((entry) => entry.project_id === projectId);

  if (resume.isSuccess && !off) {
    return <Alert color="teal" role="status" title={t('reminders.backOn')} styles={strongTitle('teal')} />;
  }
  if (!off) return null;
  return (
    <Alert color="gray" data-testid="reminders-off">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">{t('reminders.off', { date: formatDate(off.since) })}</Text>
        <Button size="xs" variant="light" onClick={() => resume.mutate()} loading={resume.isPending}>
          {t('reminders.turnOn')}
        </Button>
      </Group>
      {resume.error && (
        <Text size="sm" c="red.9" role="alert" mt="xs">
          {errorMessage(resume.error, t)}
        </Text>
      )}
    </Alert>
  );
}
