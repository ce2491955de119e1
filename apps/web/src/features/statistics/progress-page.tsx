import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Anchor, Group, Select, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useOutletContext } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import type { Project } from '@pss/contract';
import '@mantine/charts/styles.css';
import { CaseCompletionTable } from './components/case-completion-table';
import { CategoryUseTable } from './components/category-use-table';
import { EmailDeliveryTable } from './components/email-delivery-table';
import { ConnectedAccounts } from './components/connected-accounts';
import { ParticipantProgressTable } from './components/participant-progress-table';
import { RateTiles } from './components/rate-tiles';
import { byRoundQueryOptions, completionsByDayQueryOptions, defaultSeason } from './statistics-api';
import { useLiveSearchParams } from '../../lib/use-live-search-params';

/**
 * The charts (Recharts and Mantine's binding, the screen's largest part) arrive after the
 * tables' first paint. Their file is asked for as this screen's arrives, not once the screen
 * has rendered and then waited for its project (issue #48: it was the last file of a chain).
 */
const chartsFile = () => import('./components/progress-charts');
let chartsRequested: ReturnType<typeof chartsFile> | null = null;
const requestCharts = () => (chartsRequested ??= chartsFile());
const ProgressCharts = lazy(async () => ({ default: (await requestCharts()).ProgressCharts }));
// A file that fails to arrive is the lazy screen's to show; asked for early, it is not also an unhandled rejection.
requestCharts().catch(() => {});
/** Two charts side by side: a chart's height, its title and description, and the card's padding. */
const CHARTS_PLACEHOLDER_HEIGHT = 330;

/** The item analysis reads every completed case's answers: its code and its call wait for its tab. */
const ItemAnalysisTable = lazy(async () => ({
  default: (await import('./components/item-analysis-table')).ItemAnalysisTable,
}));

const views = ['overview', 'participants', 'items', 'accounts'] as const;
type View = (typeof views)[number];
const tabLabel = {
  overview: 'progress.overviewTab',
  participants: 'progress.participantsTab',
  items: 'progress.itemsTab',
  accounts: 'progress.accountsTab',
} as const;

/**
 * The Progress Dashboard (`progress?season=`): one season's rates, completions over the last
 * two weeks and by round, each case's completion, under- and over-use per question category,
 * each participant's progress, the item analysis of its cases, the client's connected
 * accounts, and the reports to download.
 *
 * The reports are another area's (features/reports): the app hands their menu in
 * (app/progress-screen.tsx), since a feature does not import another.
 */
export function ProgressPage(props: { reportMenu?: ComponentType<{ projectId: string; seasonName: string }> }) {
  const { reportMenu: ReportMenu } = props;
  const { t } = useTranslation();
  const { project } = useOutletContext<{ project: Project }>();
  const [params, replaceParams] = useLiveSearchParams();
  const today = new Date().toISOString().slice(0, 10);
  const season = project.seasons.find((s) => s.name === params.get('season')) ?? defaultSeason(project.seasons, today);
  const requested = params.get('view');
  const view: View = views.find((v) => v === requested) ?? 'overview';
  const queryClient = useQueryClient();
  // The overview's calls go out together: the charts' with the tiles' and tables', not after
  // the charts' file has arrived and rendered (they were a second wave, issue #48).
  const overviewSeason = view === 'overview' ? season?.name : undefined;
  useEffect(() => {
    if (!overviewSeason) return;
    void queryClient.prefetchQuery(completionsByDayQueryOptions(project.id, overviewSeason));
    void queryClient.prefetchQuery(byRoundQueryOptions(project.id, overviewSeason));
  }, [queryClient, project.id, overviewSeason]);

  /** A new season or view starts its lists afresh; the season stays in the address. */
  function go(changes: { season?: string; view?: string | null }) {
    replaceParams((current) => {
      const next = new URLSearchParams();
      const seasonName = changes.season ?? current.get('season');
      if (seasonName) next.set('season', seasonName);
      const nextView = changes.view === undefined ? current.get('view') : changes.view;
      if (nextView && nextView !== 'overview') next.set('view', nextView);
      return next;
    });
  }

  if (!season) {
    return (
      <Stack>
        <Title order={3}>{t('progress.title')}</Title>
        <Text>{t('progress.noSeasons')}</Text>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={3}>{t('progress.title')}</Title>
        <Group align="flex-end" wrap="wrap" gap="sm">
          <Select
            label={t('progress.season')}
            value={season.name}
            onChange={(name) => name && go({ season: name })}
            data={project.seasons.map((s) => s.name)}
            allowDeselect={false}
            w={200}
          />
          {ReportMenu && <ReportMenu projectId={project.id} seasonName={season.name} />}
        </Group>
      </Group>
      <Anchor component={Link} to={`edit/${season.id}`} size="sm" w="fit-content">
        {t('progress.summaryLink', { season: season.name })}
      </Anchor>
      <Tabs value={view} onChange={(next) => go({ view: next })} keepMounted={false}>
        <Tabs.List aria-label={t('progress.views')}>
          {views.map((v) => (
            <Tabs.Tab key={v} value={v}>
              {t(tabLabel[v])}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <Stack gap="xl">
            <RateTiles projectId={project.id} seasonName={season.name} />
            <Suspense fallback={<Skeleton height={CHARTS_PLACEHOLDER_HEIGHT} />}>
              <ProgressCharts projectId={project.id} seasonName={season.name} />
            </Suspense>
            <CaseCompletionTable projectId={project.id} seasonName={season.name} />
            <CategoryUseTable projectId={project.id} seasonName={season.name} />
            <EmailDeliveryTable projectId={project.id} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="participants" pt="md">
          <ParticipantProgressTable projectId={project.id} season={season} />
        </Tabs.Panel>
        <Tabs.Panel value="items" pt="md">
          <Suspense fallback={<Skeleton height={200} />}>
            <ItemAnalysisTable projectId={project.id} seasonName={season.name} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="accounts" pt="md">
          <ConnectedAccounts projectId={project.id} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
