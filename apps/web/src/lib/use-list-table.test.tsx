import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { ChangeEvent } from 'react';
import { renderHookInRouter } from '../test/render-hook-in-router';
import { useListState } from './use-list-state';
import { useListTable, type ListResult, type ListTableOptions, type LocalPaging } from './use-list-table';

type Row = { id: string };
const page = (items: Row[], total = items.length) => ({ items, total });

function result(overrides: Partial<ListResult<Row>> = {}): ListResult<Row> {
  return { data: page([{ id: 'a' }, { id: 'b' }], 60), isFetching: false, error: null, refetch: vi.fn(), ...overrides };
}

const empty = { none: 'Nothing yet', noMatches: 'No matches' };

/** The hook on a list whose state is in the address, as the list screens use it. */
function inAddress(url: string, query: ListResult<Row>, options: ListTableOptions = { empty }) {
  return renderHookInRouter(() => {
    const list = useListState({ sortable: ['name'] });
    return { list, ...useListTable(list, query, options) };
  }, url);
}

const typed = (value: string) => ({ currentTarget: { value } }) as ChangeEvent<HTMLInputElement>;

describe('a list table’s wiring', () => {
  it('takes the page, size and sort from the list and the rows, count and state from the query', () => {
    const query = result({ isFetching: true });
    const { result: hook } = inAddress('/clients?page=2&sort=name:DESC', query);
    const { table } = hook.current;
    expect(table).toMatchObject({ rows: [{ id: 'a' }, { id: 'b' }], total: 60, page: 2, limit: 25, loading: true });
    expect(table.sort).toEqual([{ field: 'name', direction: 'DESC' }]);
    expect(table.error).toBeNull();
    table.onRetry();
    expect(query.refetch).toHaveBeenCalledTimes(1);
  });

  it('pages and sorts through the list', () => {
    const { result: hook } = inAddress('/clients', result());
    act(() => hook.current.table.onPageChange(3));
    expect(hook.current.table.page).toBe(3);
    act(() => hook.current.table.onToggleSort('name'));
    expect(hook.current.table.sort).toEqual([{ field: 'name', direction: 'ASC' }]);
    expect(hook.current.table.page).toBe(1);
  });

  it('says "no matches" when a search or a filter leaves nothing, else that the list is empty', () => {
    const none = result({ data: page([]) });
    expect(inAddress('/clients', none).result.current.table.empty).toBe('Nothing yet');
    expect(inAddress('/clients?search=x', none).result.current.table.empty).toBe('No matches');
    expect(inAddress('/clients', none, { empty, filtered: true }).result.current.table.empty).toBe('No matches');
    expect(inAddress('/clients?search=x', none, { empty: 'Nobody' }).result.current.table.empty).toBe('Nobody');
  });

  it('gives the search box its label and typing, and tells the screen first', () => {
    const onSearchInput = vi.fn();
    const { result: hook } = inAddress('/clients?search=north', result(), { empty, onSearchInput });
    expect(hook.current.search).toMatchObject({ label: 'Search', type: 'search', value: 'north' });
    act(() => hook.current.search.onChange(typed('south')));
    expect(onSearchInput).toHaveBeenCalledTimes(1);
    expect(hook.current.search.value).toBe('south');
  });

  it('hands on a failure as it is, for the table to say what went wrong', () => {
    const error = new Error('down');
    expect(inAddress('/clients', result({ error, data: undefined })).result.current.table).toMatchObject({
      error,
      rows: undefined,
      total: 0,
    });
  });

  it('is busy only until the first page is here when the list refreshes itself', () => {
    const options = { empty, quietRefresh: true };
    expect(inAddress('/log', result({ isFetching: true }), options).result.current.table.loading).toBe(false);
    const first = result({ isFetching: true, data: undefined });
    expect(inAddress('/log', first, options).result.current.table.loading).toBe(true);
  });
});

describe('a list table without its state in the address', () => {
  it('pages with the screen’s own paging and does not sort', () => {
    const paging: LocalPaging = { page: 2, limit: 10, setPage: vi.fn() };
    const { result: hook } = renderHook(() => useListTable(paging, result(), { empty: 'None' }));
    expect(hook.current.table).toMatchObject({ page: 2, limit: 10, total: 60, sort: [] });
    hook.current.table.onPageChange(3);
    expect(paging.setPage).toHaveBeenCalledWith(3);
  });

  it('shows everything on one page without paging', () => {
    const all = result({ data: { items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] } });
    const { result: hook } = renderHook(() => useListTable(null, all, { empty: 'None' }));
    expect(hook.current.table).toMatchObject({ page: 1, limit: 3, total: 3, sort: [], empty: 'None' });
  });
});
