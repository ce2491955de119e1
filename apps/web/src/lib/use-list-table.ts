import type { ChangeEvent, ReactNode } from 'react';
import type { DataTableProps } from '../components/data-table';
import { useTranslation } from './i18n';
import type { ListState } from './use-list-state';

/** What a list's query answers (TanStack Query's result): a page of rows, and how many in all. */
export interface ListResult<Row> {
  data: { items: Row[]; total?: number } | undefined;
  isFetching: boolean;
  error: unknown;
  refetch(): Promise<unknown>;
}

/** A list paged in the screen's own state rather than in the address (useListState). */
export interface LocalPaging {
  page: number;
  limit: number;
  setPage(page: number): void;
}

export interface ListTableOptions {
  /**
   * What the table says with no rows: one message, or `none` for an empty list and
   * `noMatches` when the search or a filter leaves nothing.
   */
  empty: ReactNode | { none: ReactNode; noMatches: ReactNode };
  /** A filter beside the search is applied. */
  filtered?: boolean;
  /** Called as the search box changes, before the search is applied (to clear a selection). */
  onSearchInput?(): void;
  /** A list that refreshes itself on a timer is busy only until its first page is here. */
  quietRefresh?: boolean;
}

/** The DataTable's props that come from the list and its query. */
export type ListTableProps<Row> = Pick<
  DataTableProps<Row>,
  | 'rows'
  | 'total'
  | 'page'
  | 'limit'
  | 'onPageChange'
  | 'sort'
  | 'onToggleSort'
  | 'loading'
  | 'error'
  | 'onRetry'
  | 'empty'
>;

export interface ListTable<Row> {
  /** Spread on the DataTable, beside its caption, columns and row ids (and a selection). */
  table: ListTableProps<Row>;
  /** Spread on the list's search box (a TextInput), beside its placeholder and width. */
  search: { label: string; type: 'search'; value: string; onChange(event: ChangeEvent<HTMLInputElement>): void };
}

const isListState = (list: ListState | LocalPaging | null): list is ListState => list !== null && 'toggleSort' in list;

/**
 * The wiring between a list screen's state, its query and its table: the page, sorting and
 * search of `list` (the address's, from useListState; a screen's own paging; or null for one
 * page of everything), the rows, count, loading and failure of `result`, and the empty state.
 */
export function useListTable<Row>(
  list: ListState | LocalPaging | null,
  result: ListResult<Row>,
  options: ListTableOptions,
): ListTable<Row> {
  const { t } = useTranslation();
  const rows = result.data?.items;
  const total = result.data?.total ?? rows?.length ?? 0;
  const paging = isListState(list)
    ? { page: list.page, limit: list.query.limit, onPageChange: list.setPage }
    : list
      ? { page: list.page, limit: list.limit, onPageChange: list.setPage }
      : { page: 1, limit: Math.max(1, rows?.length ?? 1), onPageChange: () => undefined };
  const searching = isListState(list) && list.search !== '';
  const { empty } = options;
  const matches = typeof empty === 'object' && empty !== null && 'noMatches' in empty;
  return {
    table: {
      rows,
      total,
      ...paging,
      sort: isListState(list) ? list.sort : [],
      onToggleSort: isListState(list) ? list.toggleSort : () => undefined,
      loading: result.isFetching && !(options.quietRefresh && result.data),
      error: result.error,
      onRetry: () => void result.refetch(),
      empty: matches ? (searching || options.filtered ? empty.noMatches : empty.none) : empty,
    },
    search: {
      label: t('table.search'),
      type: 'search',
      value: isListState(list) ? list.searchInput : '',
      onChange: (event) => {
        options.onSearchInput?.();
        if (isListState(list)) list.setSearchInput(event.currentTarget.value);
      },
    },
  };
}
