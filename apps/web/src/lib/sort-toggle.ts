import type { SortTerm } from '@pss/contract';

/**
 * The column-header sort cycle of spec §2: a click sorts ascending, the next descending,
 * the next removes the column from the sort. `created_at` starts descending. Whatever the
 * clicks, `created_at` stays last and `updated_at` next to last, so a newer click on
 * another column always takes precedence over them.
 */
export function toggleSort(terms: readonly SortTerm[], field: string): SortTerm[] {
  const existing = terms.find((t) => t.field === field);
  const others = terms.filter((t) => t.field !== field);
  let next: SortTerm[];
  if (!existing) {
    next = [...others, { field, direction: field === 'created_at' ? 'DESC' : 'ASC' }];
  } else {
    const firstDirection = field === 'created_at' ? 'DESC' : 'ASC';
    if (existing.direction === firstDirection) {
      next = terms.map((t) =>
        t.field === field ? { field, direction: firstDirection === 'ASC' ? 'DESC' : 'ASC' } : t,
      );
    } else {
      next = others;
    }
  }
  return orderTimestampsLast(next);
}

const trailingOrder: Record<string, number> = { updated_at: 1, created_at: 2 };

function orderTimestampsLast(terms: SortTerm[]): SortTerm[] {
  // Stable sort: other columns keep the order in which they were clicked.
  return [...terms].sort((a, b) => (trailingOrder[a.field] ?? 0) - (trailingOrder[b.field] ?? 0));
}

/** The direction a column shows, if it is sorted. */
export function sortDirectionOf(terms: readonly SortTerm[], field: string): 'ASC' | 'DESC' | undefined {
  return terms.find((t) => t.field === field)?.direction;
}
