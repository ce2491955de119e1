import { memo, type ReactNode } from 'react';
import { Skeleton, Table } from '@mantine/core';
import { isSelected, toggleRow, type SelectionState } from '../lib/selection';
import { PlainCheckbox } from './plain-controls';

/** What the body needs of a column: its key and how it shows a row. */
export interface BodyColumn<Row> {
  key: string;
  render(row: Row): ReactNode;
}

export interface DataTableRowsProps<Row> {
  /** The page's rows as the table shows them (its deferred value); undefined before the first. */
  rows: Row[] | undefined;
  /** Rows are on their way: five skeleton rows stand in for them. */
  waiting: boolean;
  columns: BodyColumn<Row>[];
  getRowId(row: Row): string;
  /** Each row's checkbox, when the table has a selection. */
  selection?: SelectionState;
  onSelectionChange?(next: SelectionState): void;
  selectRowLabel: string;
}

/**
 * The body's rows and cells are the browser's own elements with Mantine's class names for a
 * table's parts and the data attributes its Table.Tr gives them (row borders, hover): each
 * Table.Tr and Table.Td is a component with a styles pass of its own, some two hundred on a
 * page of 25 rows, all rendered and committed with the rows. They look the same.
 */
const part = Table.classes;

function DataTableRowsOf<Row>(props: DataTableRowsProps<Row>) {
  const selectable = Boolean(props.selection && props.onSelectionChange);
  if (props.waiting) {
    return Array.from({ length: 5 }, (_, i) => (
      <tr key={`skeleton-${i}`} className={part.tr} data-with-row-border data-hover>
        {selectable && <td className={part.td} />}
        {props.columns.map((column) => (
          <td key={column.key} className={part.td}>
            <Skeleton height={14} radius="sm" />
          </td>
        ))}
      </tr>
    ));
  }
  return props.rows?.map((row) => {
    const id = props.getRowId(row);
    return (
      <tr key={id} className={part.tr} data-with-row-border data-hover>
        {selectable && (
          <td className={part.td}>
            <PlainCheckbox
              label={props.selectRowLabel}
              checked={isSelected(props.selection!, id)}
              onChange={() => props.onSelectionChange!(toggleRow(props.selection!, id))}
            />
          </td>
        )}
        {props.columns.map((column) => (
          <td key={column.key} className={part.td}>
            {column.render(row)}
          </td>
        ))}
      </tr>
    );
  });
}

/**
 * A table's body, rendered again only when its rows, columns or selection change. A list's
 * query answers in several steps (fetching, data, the deferred rows), each a render of its
 * screen, and the first steps are synchronous (TanStack Query reads its cache through
 * useSyncExternalStore): twenty-five rows of checkboxes, links and buttons made again at each
 * were long tasks after the first paint (Lighthouse's blocking time on the clients list).
 * It holds only when the screen keeps its columns and `getRowId` stable (useMemo, or defined
 * outside the component); otherwise the rows render as before.
 */
export const DataTableRows = memo(DataTableRowsOf) as typeof DataTableRowsOf;
