import type { ReactNode } from 'react';
import { Skeleton, Table, Text } from '@mantine/core';
import { QueryError } from '../../../components/query-error';
import classes from './progress-tables.module.css';

/**
 * A table of the season's figures: a row per item with its name first and its numbers after
 * (aligned right), skeleton rows until the figures are here, a failure in its place with a
 * retry, and a line of its own when there is nothing to count.
 */
export function FigureTable<Row>(props: {
  /** Read by screen readers: the section's title. */
  caption: string;
  columns: string[];
  rows: Row[] | undefined;
  rowKey(row: Row): string;
  /** The row's cells, one a column. */
  cells(row: Row): ReactNode[];
  error: unknown;
  onRetry(): void;
  /** Shown in place of the table when set. */
  empty: string | null;
  minWidth: number;
  testId: string;
}) {
  if (props.error) return <QueryError error={props.error} onRetry={props.onRetry} />;
  if (props.empty) return <Text c="dimmed">{props.empty}</Text>;
  const alignment = (i: number) => (i > 0 ? classes.number : undefined);
  return (
    <Table.ScrollContainer minWidth={props.minWidth}>
      <Table verticalSpacing="sm" aria-busy={!props.rows} data-testid={props.testId}>
        <Table.Caption className={classes.srOnly}>{props.caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {props.columns.map((header, i) => (
              <Table.Th key={i} className={alignment(i)}>
                {header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows
            ? props.rows.map((row) => (
                <Table.Tr key={props.rowKey(row)}>
                  {props.cells(row).map((cell, i) => (
                    <Table.Td key={i} className={alignment(i)}>
                      {cell}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            : Array.from({ length: 3 }, (_, i) => (
                <Table.Tr key={i}>
                  {props.columns.map((_, j) => (
                    <Table.Td key={j}>
                      <Skeleton h={14} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
