import { Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { categoryUseQueryOptions } from '../progress-api';
import { formatChange, formatRate } from '../progress-format';
import { QueryError } from '../../../components/query-error';
import classes from './progress-tables.module.css';

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
      {query.error ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : empty ? (
        <Text c="dimmed">{t('progress.categoriesEmpty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" aria-busy={!query.data} data-testid="category-use">
            <Table.Caption className={classes.srOnly}>{t('progress.categoriesTitle')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {columns.map((header, i) => (
                  <Table.Th key={i} className={i > 0 ? classes.number : undefined}>
                    {header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data
                ? query.data.items.map((c) => (
                    <Table.Tr key={c.category_id ?? 'none'}>
                      <Table.Td>{c.category_id ? c.category_name : t('progress.uncategorised')}</Table.Td>
                      <Table.Td className={classes.number}>
                        {formatRate(c.under_use_rate)}{' '}
                        <Text span size="xs" c="dimmed">
                          ({c.necessary_missed}/{c.necessary_offered})
                        </Text>
                      </Table.Td>
                      <Table.Td className={classes.number}>{formatChange(c.under_use_change)}</Table.Td>
                      <Table.Td className={classes.number}>
                        {formatRate(c.over_use_rate)}{' '}
                        <Text span size="xs" c="dimmed">
                          ({c.unnecessary_chosen}/{c.unnecessary_offered})
                        </Text>
                      </Table.Td>
                      <Table.Td className={classes.number}>{formatChange(c.over_use_change)}</Table.Td>
                    </Table.Tr>
                  ))
                : Array.from({ length: 3 }, (_, i) => (
                    <Table.Tr key={i}>
                      {columns.map((_, j) => (
                        <Table.Td key={j}>
                          <Skeleton h={14} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
