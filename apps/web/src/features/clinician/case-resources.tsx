import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { resourceRoutes, type ReplyOf } from '@pss/contract';
import { call } from '../../lib/api-client';
import { LoadBoundary } from '../../components/load-boundary';
import '../../lib/i18n/participant';

export type AttemptResource = ReplyOf<typeof resourceRoutes.ofAttempt>['items'][number];

/**
 * The tabs and the viewers come once there is something to show in them: most cases have no
 * resources, and the case screen's first download stays within its budget.
 */
const loadTabs = async () => ({ default: (await import('./case-resource-tabs')).CaseResourceTabs });

/**
 * The resources of a participant's case: a PDF in the viewer, an image, a video in a player,
 * a link, a text — one tab each. Files come from signed links the server gives for the
 * participant's own case only (asked again after a while, since they expire).
 */
export function CaseResources({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation();
  // A chunk that could not be fetched (offline) leaves the rest of the case on screen, with a
  // way to try again: a new lazy component imports afresh (a failed import is not kept).
  const [tries, setTries] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `tries` is what makes a new one
  const CaseResourceTabs = useMemo(() => lazy(loadTabs), [tries]);
  const resources = useQuery({
    queryKey: ['participant', 'resources', attemptId],
    queryFn: ({ signal }) =>
      call(resourceRoutes.ofAttempt, { params: { userSeasonRoundCaseId: attemptId } }, { signal }),
    staleTime: 10 * 60 * 1000,
  });
  const items = resources.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="case-resources-title">
      <Stack>
        <div>
          <Title order={3} id="case-resources-title">
            {t('participantPages.resources')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('participantPages.resourcesHelp')}
          </Text>
        </div>
        <LoadBoundary
          key={tries}
          fallback={
            <Alert color="red" role="alert" title={t('participantPages.resourcesFailed')}>
              <Button size="compact-sm" variant="light" color="red" onClick={() => setTries((n) => n + 1)}>
                {t('table.retry')}
              </Button>
            </Alert>
          }
        >
          <Suspense fallback={<Skeleton h={120} />}>
            <CaseResourceTabs items={items} />
          </Suspense>
        </LoadBoundary>
      </Stack>
    </Paper>
  );
}
