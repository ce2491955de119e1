import { z } from 'zod';
import type { SortDirection } from './enums.js';

/**
 * The one shape of every list call: `page` (1-based), `limit` (default 25, at most 200),
 * `search`, `sort` (`field:ASC,other:DESC`) and `filter` (a JSON object whose keys each
 * list documents). Answers are `{ items, total, page, limit }`.
 */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 200;

export interface SortTerm<F extends string = string> {
  field: F;
  direction: SortDirection;
}

export interface ListQuery<F extends string = string, Filter = Record<string, never>> {
  page: number;
  limit: number;
  search?: string;
  sort: SortTerm<F>[];
  filter: Filter;
}

export interface ListDefinition<F extends string, Filter extends z.ZodType> {
  /** Fields the list may be sorted by, in their snake_case wire names. */
  sortable: readonly F[];
  /** Order used when the caller gives none. */
  defaultSort: SortTerm<F>[];
  /** The keys `filter` may carry. */
  filter: Filter;
}

/** Parses `name:ASC,created_at:DESC` into terms, or says what is wrong with it. */
export function parseSort<F extends string>(
  raw: string,
  sortable: readonly F[],
): { ok: true; terms: SortTerm<F>[] } | { ok: false; message: string } {
  const terms: SortTerm<F>[] = [];
  for (const part of raw.split(',')) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const [field, direction = 'ASC', extra] = trimmed.split(':');
    if (extra !== undefined) return { ok: false, message: `"${trimmed}" is not field:ASC or field:DESC` };
    if (!sortable.includes(field as F)) {
      return { ok: false, message: `cannot sort by "${field}"; sortable fields: ${sortable.join(', ')}` };
    }
    const upper = direction.toUpperCase();
    if (upper !== 'ASC' && upper !== 'DESC') {
      return { ok: false, message: `sort direction must be ASC or DESC, not "${direction}"` };
    }
    if (terms.some((t) => t.field === field)) return { ok: false, message: `"${field}" is sorted twice` };
    terms.push({ field: field as F, direction: upper });
  }
  return { ok: true, terms };
}

/** Writes sort terms back into the wire form. */
export function formatSort(terms: readonly SortTerm[]): string {
  return terms.map((t) => `${t.field}:${t.direction}`).join(',');
}

/**
 * Builds the query-string schema of one list. The result is what services receive:
 * sort terms checked against the list's fields, the filter parsed and validated.
 */
export function listQuerySchema<F extends string, Filter extends z.ZodType>(definition: ListDefinition<F, Filter>) {
  return z
    .object({
      page: z.coerce.number().int().min(1).max(1_000_000).default(1),
      limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
      search: z.string().trim().max(200).optional(),
      sort: z.string().max(500).optional(),
      filter: z.string().max(4000).optional(),
    })
    .transform((raw, ctx): ListQuery<F, z.infer<Filter>> => {
      let sort = definition.defaultSort;
      if (raw.sort) {
        const parsed = parseSort(raw.sort, definition.sortable);
        if (!parsed.ok) {
          ctx.addIssue({ code: 'custom', path: ['sort'], message: parsed.message });
          return z.NEVER;
        }
        if (parsed.terms.length) sort = parsed.terms;
      }
      let filterValue: unknown = {};
      if (raw.filter) {
        try {
          filterValue = JSON.parse(raw.filter);
        } catch {
          ctx.addIssue({ code: 'custom', path: ['filter'], message: 'filter must be a JSON object' });
          return z.NEVER;
        }
      }
      const filter = definition.filter.safeParse(filterValue);
      if (!filter.success) {
        for (const issue of filter.error.issues) {
          ctx.addIssue({ code: 'custom', path: ['filter', ...issue.path.map(String)], message: issue.message });
        }
        return z.NEVER;
      }
      return {
        page: raw.page,
        limit: raw.limit,
        search: raw.search ? raw.search : undefined,
        sort,
        filter: filter.data as z.infer<Filter>,
      };
    });
}

/** A filter for lists that take none: only `{}` is accepted. */
export const noFilter = z.strictObject({});

/** The answer of every list call. */
export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  });
}

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

/**
 * A bulk action's selection: chosen ids, or "all that match this search and filter,
 * except these" (the table's select-all with unselected exceptions).
 */
export function selectionOf<F extends z.ZodType>(filter: F) {
  return z.union([
    z.strictObject({ ids: z.array(z.string().uuid()).min(1).max(10_000) }),
    z.strictObject({
      all: z.literal(true),
      except: z.array(z.string().uuid()).max(10_000).default([]),
      search: z.string().trim().max(200).optional(),
      filter,
    }),
  ]);
}
export const selectionSchema = selectionOf(z.record(z.string(), z.unknown()).optional());
export type Selection = z.infer<typeof selectionSchema>;
