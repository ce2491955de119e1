import { lazy, Suspense, type ReactNode } from 'react';
import { Skeleton, Stack, Tabs } from '@mantine/core';
import type { CaseDocument, Season } from '@pss/contract';
import { useTranslation } from '../../lib/i18n';
import { useLiveSearchParams } from '../../lib/use-live-search-params';

/** The analysis's code and its call wait for its tab. */
const ItemAnalysisTable = lazy(async () => ({
  default: (await import('../statistics/components/item-analysis-table')).ItemAnalysisTable,
}));

/**
 * Case Setup's two views of a project's case placed in a season: the setup itself, and the
 * item analysis of its questions over the season's completed cases (`?tab=items`). A case
 * of a module library, or one not placed in a season, has its setup alone.
 */
export function CaseViews(props: { saved: CaseDocument; season: Season | null; children: ReactNode }) {
  const { t } = useTranslation();
  const [params, replaceParams] = useLiveSearchParams();
  const { saved, season } = props;
  const setup = <Stack gap="lg">{props.children}</Stack>;
  if (!season || !saved.project_id) return setup;
  const tab = params.get('tab') === 'items' ? 'items' : 'setup';
  return (
    <Tabs
      value={tab}
      onChange={(next) =>
        replaceParams((current) => {
          if (next === 'items') current.set('tab', 'items');
          else current.delete('tab');
          return current;
        })
      }
      keepMounted={false}
    >
      <Tabs.List aria-label={t('cases.views')}>
        <Tabs.Tab value="setup">{t('cases.setupTab')}</Tabs.Tab>
        <Tabs.Tab value="items">{t('cases.itemsTab')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="setup" pt="md">
        {setup}
      </Tabs.Panel>
      <Tabs.Panel value="items" pt="md">
        <Suspense fallback={<Skeleton height={200} />}>
          <ItemAnalysisTable projectId={saved.project_id} seasonName={season.name} caseId={saved.id} />
        </Suspense>
      </Tabs.Panel>
    </Tabs>
  );
}
