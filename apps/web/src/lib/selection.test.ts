import { describe, expect, it } from 'vitest';
import { emptySelection, isSelected, selectedCount, toggleAll, toggleRow, toSelectionBody } from './selection';

describe('table selection', () => {
  it('selects and unselects single rows', () => {
    const one = toggleRow(emptySelection, 'a');
    expect(isSelected(one, 'a')).toBe(true);
    expect(selectedCount(one, 10)).toBe(1);
    expect(toSelectionBody(one, {})).toEqual({ ids: ['a'] });
    expect(isSelected(toggleRow(one, 'a'), 'a')).toBe(false);
    expect(toSelectionBody(emptySelection, {})).toBeNull();
  });

  it('selects all matching rows with unselected exceptions', () => {
    const all = toggleAll(emptySelection, 120);
    expect(selectedCount(all, 120)).toBe(120);
    expect(isSelected(all, 'row-on-page-5')).toBe(true);
    const allButTwo = toggleRow(toggleRow(all, 'x'), 'y');
    expect(selectedCount(allButTwo, 120)).toBe(118);
    expect(isSelected(allButTwo, 'x')).toBe(false);
    expect(toSelectionBody(allButTwo, { search: 'north' })).toEqual({
      all: true,
      except: ['x', 'y'],
      search: 'north',
      filter: undefined,
    });
    // Selecting an excepted row again takes it out of the exceptions.
    expect(selectedCount(toggleRow(allButTwo, 'x'), 120)).toBe(119);
  });

  it('the header checkbox clears a full selection', () => {
    const all = toggleAll(emptySelection, 3);
    expect(toggleAll(all, 3)).toEqual(emptySelection);
    // A partial selection becomes a full one.
    expect(selectedCount(toggleAll(toggleRow(emptySelection, 'a'), 3), 3)).toBe(3);
  });
});
