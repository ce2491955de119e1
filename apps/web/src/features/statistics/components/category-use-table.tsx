import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { categoryUseQueryOptions } from '../statistics-api';
import { formatChange, formatRate } from '../progress-format';
import { FigureTable } from './figure-table';

/**
 * Under-use (necessary choices missed) and over-use (unnecessary choices chosen) per
 * question category over the season's completed cases, with the change from round 1 to the last.
 */
export function CategoryUseTable(props: { projectId: string; seasonName: string }) {
  const { t } = useTranslation();
  const query = useQuery(categoryUseQueryOptions(props.projectId, props.seasonName));
  const columns = [
    t('progress.category'),
    t('progress.underUse'),
    t('progress.underUseChange'),
    t('progress.overUse'),
    t('progress.overUseChange'),
  ];
  const empty = query.data && query.data.items.every((c) => c.necessary_offered + c.unnecessary_offered === 0);
  return (
    <Stack gap="xs" component="section" aria-labelledby="category-use-title">
      <div>
        <Title order={4} id="category-use-title">
          {t('progress.categoriesTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('progress.categoriesHelp')}
        </Text>
      </div>
      <FigureTable
        caption={t('progress.categoriesTitle')}
        columns={columns}
        rows={query.data?.items}
        rowKey={(c) => c.category_id ?? 'none'}
        cells={(c) => [
          c.category_id ? c.category_name : t('progress.uncategorised'),
          <>
            {formatRate(c.under_use_rate)}{' '}
            <Text span size="xs" c="dimmed">
              ({c.necessary_missed}/{c.necessary_offered})
            </Text>
          </>,
          formatChange(c.under_use_change),
          <>
            {formatRate(c.over_use_rate)}{' '}
            <Text span size="xs" c="dimmed">
              ({c.unnecessary_chosen}/{c.unnecessary_offered})
            </Text>
          </>,
          formatChange(c.over_use_change),
        ]}
        error={query.error}
        onRetry={() => void query.refetch()}
        empty={empty ? t('progress.categoriesEmpty') : null}
        minWidth={560}
        testId="category-use"
      />
    </Stack>
  );
}
