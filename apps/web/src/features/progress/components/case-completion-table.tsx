import { Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { caseCompletionQueryOptions } from '../progress-api';
import { formatRate, formatScore } from '../progress-format';
import { QueryError } from '../../../components/query-error';
import classes from './progress-tables.module.css';

/** Each published case of the season: assigned, started, completed, the rate and the mean score. */
export function CaseCompletionTable(props: { projectId: string; seasonName: string }) {
  const { t } = useTranslation();
  const query = useQuery(caseCompletionQueryOptions(props.projectId, props.seasonName));
  const columns = [
    t('progress.caseName'),
    t('progress.round'),
    t('progress.assigned'),
    t('progress.started'),
    t('progress.completed'),
    t('progress.completionRateColumn'),
    t('progress.averageScore'),
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="case-completion-title">
      <Title order={4} id="case-completion-title">
        {t('progress.casesTitle')}
      </Title>
      {query.error ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data && query.data.items.length === 0 ? (
        <Text c="dimmed">{t('progress.casesEmpty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" aria-busy={!query.data} data-testid="case-completion">
            <Table.Caption className={classes.srOnly}>{t('progress.casesTitle')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {columns.map((header, i) => (
                  <Table.Th key={header} className={i > 0 ? classes.number : undefined}>
                    {header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data
                ? query.data.items.map((c) => (
                    <Table.Tr key={c.case_id}>
                      <Table.Td>{c.case_name}</Table.Td>
                      <Table.Td className={classes.number}>{c.round_number}</Table.Td>
                      <Table.Td className={classes.number}>{c.assigned}</Table.Td>
                      <Table.Td className={classes.number}>{c.started}</Table.Td>
                      <Table.Td className={classes.number}>{c.completed}</Table.Td>
                      <Table.Td className={classes.number}>{formatRate(c.completion_rate)}</Table.Td>
                      <Table.Td className={classes.number}>{formatScore(c.average_score)}</Table.Td>
                    </Table.Tr>
                  ))
                : Array.from({ length: 3 }, (_, i) => (
                    <Table.Tr key={i}>
                      {columns.map((header) => (
                        <Table.Td key={header}>
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
