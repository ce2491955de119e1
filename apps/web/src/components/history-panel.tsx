import { useEffect, useRef } from 'react';
import { Anchor, Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '../lib/screen-router';
import { useTranslation } from '../lib/i18n';
import { QueryError } from './query-error';
import { auditKeys, historyQueryOptions, logPathFor } from '../lib/audit-history';
import { AuditChanges } from './audit-changes';
import { ActionCell, ActorCell, OutcomeBadge, TimeCell } from './audit-cells';

export interface HistoryPanelProps {
  /** The record: its type as the events name it (`case`, `user`, `project`) and its ID. */
  targetType: string;
  targetId: string;
  /**
   * Changes when the record is saved on this screen (its `updated_at`): the history is read
   * again, so the save's own event appears.
   */
  version?: string | number;
  /** What the history covers, when it is more or less than the record's own changes. */
  intro?: string;
}

/**
 * One record's history: its events newest first, each with who, when, the action and its
 * outcome, and the changed fields before | after; older events a page at a time.
 */
export function HistoryPanel({ targetType, targetId, version, intro }: HistoryPanelProps) {
  const { t } = useTranslation();
  const history = useInfiniteQuery(historyQueryOptions(targetType, targetId));
  useRefreshOn(version, targetType, targetId);
  const events = history.data?.pages.flatMap((page) => page.items);

  return (
    <Stack gap="sm" data-testid="history">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {intro ?? t('audit.history.intro')}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            onClick={() => void history.refetch()}
            loading={history.isFetching && !history.isFetchingNextPage}
          >
            {t('audit.history.refresh')}
          </Button>
          <Anchor component={Link} to={logPathFor(targetType, targetId)} size="sm">
            {t('audit.history.inLog')}
          </Anchor>
        </Group>
      </Group>
      {history.error ? (
        <QueryError error={history.error} onRetry={() => void history.refetch()} />
      ) : !events ? (
        <Skeleton h={120} />
      ) : events.length === 0 ? (
        <Text c="dimmed">{t('audit.history.empty')}</Text>
      ) : (
        <Stack
          gap="xs"
          component="ol"
          aria-label={t('audit.history.caption')}
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {events.map((event) => (
            <Card key={event.id} component="li" withBorder radius="sm" p="sm">
              <Group justify="space-between" align="flex-start" wrap="wrap" mb="xs" gap="sm">
                <Group gap="lg" align="flex-start" wrap="wrap">
                  <TimeCell event={event} />
                  <ActorCell event={event} />
                  <ActionCell action={event.action} />
                </Group>
                <OutcomeBadge outcome={event.outcome} />
              </Group>
              <AuditChanges changes={event.changes} targetType={targetType} />
            </Card>
          ))}
        </Stack>
      )}
      {history.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage}>
            {t('audit.history.older')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** Reads the history again when the record's version changes (not on the first render). */
function useRefreshOn(version: string | number | undefined, targetType: string, targetId: string) {
  const queryClient = useQueryClient();
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    void queryClient.invalidateQueries({ queryKey: auditKeys.history(targetType, targetId) });
  }, [version, queryClient, targetType, targetId]);
}
