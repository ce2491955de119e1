import { useDeferredValue, type ReactNode } from 'react';
import { Checkbox, Group, Pagination, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import type { SortTerm } from '@pss/contract';
import { sortDirectionOf } from '../lib/sort-toggle';
import { selectedCount, toggleAll, type SelectionState } from '../lib/selection';
import { DataTableRows } from './data-table-rows';
import { QueryError } from './query-error';
import classes from './data-table.module.css';

export interface Column<Row> {
  key: string;
  header: string;
  /** The wire field to sort by, when the column is sortable. */
  sortField?: string;
  render(row: Row): ReactNode;
}

export interface DataTableProps<Row> {
  caption: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  total: number;
  page: number;
  limit: number;
  getRowId(row: Row): string;
  onPageChange(page: number): void;
  sort: SortTerm[];
  onToggleSort(field: string): void;
  loading: boolean;
  /** The list's read failed (null or undefined: it did not): shown in place of the table. */
  error: unknown;
  onRetry(): void;
  empty: ReactNode;
  selection?: SelectionState;
  onSelectionChange?(next: SelectionState): void;
}

const ariaSort = { ASC: 'ascending', DESC: 'descending' } as const;

/**
 * The table of every list screen: sortable headers, paging, skeletons while loading,
 * errors in place with a retry, an empty state, and (when given a selection) row
 * checkboxes with select-all and unselected exceptions. A list screen gets the props that
 * follow its state and query from useListTable (lib/use-list-table.ts).
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { t } = useTranslation();
  const selectable = Boolean(props.selection && props.onSelectionChange);
  const count = props.selection ? selectedCount(props.selection, props.total) : 0;
  // A page of rows is many components (a page of 25 clients about 300): rendered as a
  // deferred value, React builds them in the background, yielding to the browser every few
  // milliseconds, so typing, clicks and the rest of the screen are not held up by one long
  // task (Lighthouse's total blocking time on the clients list). The skeleton stays until
  // they are ready.
  const rows = useDeferredValue(props.rows);
  const waiting = !rows && (props.loading || props.rows !== undefined);
  // The pager comes with the rows it pages: below the skeleton it would be pushed down when
  // they arrive (a layout shift).
  const pages = Math.max(1, Math.ceil(useDeferredValue(props.total) / props.limit));

  if (props.error) return <QueryError error={props.error} onRetry={props.onRetry} />;

  return (
    <div>
      {selectable && count > 0 && (
        <Text size="sm" mb="xs" aria-live="polite" data-testid="selection-count">
          {t('table.selected', { count })}
        </Text>
      )}
      {/* The browser's own scrolling: Mantine's scroll area is a dozen components that measure
          the table and render again as it settles, long tasks after the list has painted
          (Lighthouse's blocking time on the clients list). */}
      <Table.ScrollContainer minWidth={560} type="native">
        <Table highlightOnHover highlightOnHoverColor="gray.0" verticalSpacing="sm" aria-busy={props.loading}>
          <Table.Caption className={classes.srOnly}>{props.caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {selectable && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('table.selectAll')}
                    checked={props.total > 0 && count === props.total}
                    indeterminate={count > 0 && count < props.total}
                    onChange={() => props.onSelectionChange!(toggleAll(props.selection!, props.total))}
                  />
                </Table.Th>
              )}
              {props.columns.map((column) => {
                const direction = column.sortField ? sortDirectionOf(props.sort, column.sortField) : undefined;
                return (
                  <Table.Th key={column.key} aria-sort={direction ? ariaSort[direction] : undefined}>
                    {column.sortField ? (
                      <UnstyledButton
                        className={classes.sortButton}
                        onClick={() => props.onToggleSort(column.sortField!)}
                        aria-label={t('table.sortBy', { column: column.header })}
                      >
                        {column.header}
                        <span aria-hidden="true" className={classes.sortMark}>
                          {direction === 'ASC' ? '▲' : direction === 'DESC' ? '▼' : '↕'}
                        </span>
                      </UnstyledButton>
                    ) : (
                      column.header
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <DataTableRows
              rows={rows}
              waiting={waiting}
              columns={props.columns}
              getRowId={props.getRowId}
              selection={selectable ? props.selection : undefined}
              onSelectionChange={selectable ? props.onSelectionChange : undefined}
              selectRowLabel={t('table.selectRow')}
            />
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!props.loading && rows?.length === 0 && (
        <Text c="dimmed" ta="center" py="xl">
          {props.empty}
        </Text>
      )}
      {pages > 1 && (
        <Group justify="flex-end" mt="md">
          <Pagination
            total={pages}
            value={props.page}
            onChange={props.onPageChange}
            getItemProps={(page) => ({ 'aria-label': t('table.page', { page, pages }) })}
            getControlProps={(control) => ({ 'aria-label': t(`table.${control}Page`) })}
          />
        </Group>
      )}
    </div>
  );
}
