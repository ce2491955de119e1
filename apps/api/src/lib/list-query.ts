import { asc, desc, ilike, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ListQuery, Paged, SortTerm } from '@pss/contract';
import { escapeLike } from '../db/like-patterns.js';

/**
 * The server half of the shared list implementation (the contract's listQuerySchema is
 * the other): sorting and paging happen in SQL, never in memory.
 */

/** ORDER BY terms for the chosen sort, with a unique tie-breaker so pages never overlap. */
export function orderByTerms<F extends string>(
  terms: readonly SortTerm<F>[],
  columns: Record<F, AnyColumn | SQL>,
  tieBreaker: AnyColumn,
): SQL[] {
  const order = terms.map((t) => (t.direction === 'ASC' ? asc(columns[t.field]) : desc(columns[t.field])));
  const lastDirection = terms.at(-1)?.direction ?? 'ASC';
  order.push(lastDirection === 'ASC' ? asc(tieBreaker) : desc(tieBreaker));
  return order;
}

/** The lists' searches escape their wildcards as the participant search's SQL does (`db/like-patterns.ts`). */
export { escapeLike };

/** Case-insensitive "contains" over several columns, or nothing when there is no search. */
export function searchCondition(search: string | undefined, columns: (AnyColumn | SQL)[]): SQL | undefined {
  if (!search) return undefined;
  const pattern = `%${escapeLike(search)}%`;
  return or(...columns.map((c) => ilike(c, pattern)));
}

export function pageOffset(query: Pick<ListQuery, 'page' | 'limit'>): number {
  return (query.page - 1) * query.limit;
}

/**
 * Runs the page and its count. The count is a separate, index-only query for the same
 * condition; a list whose table grows past what that can count quickly keeps its own
 * counter instead (see docs/design/lists.md).
 */
export async function runPaged<T>(
  query: Pick<ListQuery, 'page' | 'limit'>,
  fetchPage: (limit: number, offset: number) => Promise<T[]>,
  fetchTotal: () => Promise<number>,
): Promise<Paged<T>> {
  const [items, total] = await Promise.all([fetchPage(query.limit, pageOffset(query)), fetchTotal()]);
  return { items, total, page: query.page, limit: query.limit };
}

/** `count(*)` as a JavaScript number. */
export const countAll = sql<number>`cast(count(*) as integer)`;
