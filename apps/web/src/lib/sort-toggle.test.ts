import { describe, expect, it } from 'vitest';
import type { SortTerm } from '@pss/contract';
import { toggleSort } from './sort-toggle';

function cycle(start: SortTerm[], ...fields: string[]): SortTerm[] {
  return fields.reduce((terms, field) => toggleSort(terms, field), start);
}

describe('column sort toggle', () => {
  it('goes ascending, then descending, then removed', () => {
    expect(cycle([], 'name')).toEqual([{ field: 'name', direction: 'ASC' }]);
    expect(cycle([], 'name', 'name')).toEqual([{ field: 'name', direction: 'DESC' }]);
    expect(cycle([], 'name', 'name', 'name')).toEqual([]);
  });

  it('starts created_at descending, then ascending, then removed', () => {
    expect(cycle([], 'created_at')).toEqual([{ field: 'created_at', direction: 'DESC' }]);
    expect(cycle([], 'created_at', 'created_at')).toEqual([{ field: 'created_at', direction: 'ASC' }]);
    expect(cycle([], 'created_at', 'created_at', 'created_at')).toEqual([]);
  });

  it('keeps created_at last and updated_at next to last', () => {
    expect(cycle([], 'created_at', 'updated_at', 'name')).toEqual([
      { field: 'name', direction: 'ASC' },
      { field: 'updated_at', direction: 'ASC' },
      { field: 'created_at', direction: 'DESC' },
    ]);
  });

  it('keeps other columns in the order they were clicked', () => {
    expect(cycle([], 'name', 'cap_id', 'name')).toEqual([
      { field: 'name', direction: 'DESC' },
      { field: 'cap_id', direction: 'ASC' },
    ]);
  });
});
