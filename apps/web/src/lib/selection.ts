import type { Selection } from '@pss/contract';

/**
 * Table selection with select-all and unselected exceptions: either a set of chosen ids,
 * or "every row matching the current search and filter, except these".
 */
export type SelectionState = { mode: 'some'; ids: ReadonlySet<string> } | { mode: 'all'; except: ReadonlySet<string> };

export const emptySelection: SelectionState = { mode: 'some', ids: new Set() };

export function isSelected(state: SelectionState, id: string): boolean {
  return state.mode === 'some' ? state.ids.has(id) : !state.except.has(id);
}

export function toggleRow(state: SelectionState, id: string): SelectionState {
  if (state.mode === 'some') {
    const ids = new Set(state.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { mode: 'some', ids };
  }
  const except = new Set(state.except);
  if (except.has(id)) except.delete(id);
  else except.add(id);
  return { mode: 'all', except };
}

/** The header checkbox: selects every matching row, or clears the selection. */
export function toggleAll(state: SelectionState, total: number): SelectionState {
  return selectedCount(state, total) === total && total > 0 ? emptySelection : { mode: 'all', except: new Set() };
}

export function selectedCount(state: SelectionState, total: number): number {
  return state.mode === 'some' ? state.ids.size : Math.max(0, total - state.except.size);
}

/** The selection as a bulk call takes it. */
export function toSelectionBody(
  state: SelectionState,
  context: { search?: string; filter?: Record<string, unknown> },
): Selection | null {
  if (state.mode === 'some') return state.ids.size ? { ids: [...state.ids] } : null;
  return { all: true, except: [...state.except], search: context.search, filter: context.filter };
}
