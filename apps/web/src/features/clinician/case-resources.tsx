import { Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { resourceRoutes } from '@pss/contract';
import { ResourceView } from '../../components/resource-view';
import { call } from '../../lib/api-client';

/**
 * The resources of a participant's case: a PDF in the viewer, an image, a video in a player,
 * a link, a text — one tab each. Files come from signed links the server gives for the
 * participant's own case only (asked again after a while, since they expire).
 */
export function CaseResources({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation();
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
            {t('clinician.resources')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('clinician.resourcesHelp')}
          </Text>
        </div>
        <Tabs defaultValue={items[0]!.id} keepMounted={false}>
          <Tabs.List>
            {items.map((r) => (
              <Tabs.Tab key={r.id} value={r.id}>
                {r.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {items.map((r) => (
            <Tabs.Panel key={r.id} value={r.id} pt="md">
              <ResourceView
                name={r.name}
                type={r.source_type}
                details={r.details}
                link={r.link}
                file={r.file}
                view={r.view}
                download={r.download}
              />
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </Paper>
  );
}
