import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatSort, listQuerySchema, noFilter, parseSort, selectionSchema } from './list-query.js';

const clientsList = listQuerySchema({
  sortable: ['name', 'cap_id', 'created_at'] as const,
  defaultSort: [{ field: 'created_at', direction: 'DESC' }],
  filter: z.strictObject({ cap_status: z.enum(['Active', 'Inactive']).optional() }),
});

function issuesOf(input: Record<string, string>): string[] {
  const result = clientsList.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((i) => i.path.join('.'));
}

describe('list query', () => {
  it('defaults to page 1, 25 rows and the list default sort', () => {
    expect(clientsList.parse({})).toEqual({
      page: 1,
      limit: 25,
      search: undefined,
      sort: [{ field: 'created_at', direction: 'DESC' }],
      filter: {},
    });
  });

  it('reads page, limit, search, sort and filter from query strings', () => {
    expect(
      clientsList.parse({
        page: '3',
        limit: '50',
        search: '  north ',
        sort: 'name:asc,created_at:DESC',
        filter: '{"cap_status":"Active"}',
      }),
    ).toEqual({
      page: 3,
      limit: 50,
      search: 'north',
      sort: [
        { field: 'name', direction: 'ASC' },
        { field: 'created_at', direction: 'DESC' },
      ],
      filter: { cap_status: 'Active' },
    });
  });

  it('treats a blank search as none', () => {
    expect(clientsList.parse({ search: '   ' }).search).toBeUndefined();
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ page: '-1' }, 'page'],
    [{ page: 'two' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ limit: '10000' }, 'limit'],
    [{ limit: '0' }, 'limit'],
    [{ sort: 'password_hash:ASC' }, 'sort'],
    [{ sort: 'name:SIDEWAYS' }, 'sort'],
    [{ sort: 'name:ASC:extra' }, 'sort'],
    [{ sort: 'name:ASC,name:DESC' }, 'sort'],
    [{ filter: '{not json' }, 'filter'],
    [{ filter: '{"unknown_key":1}' }, 'filter'],
    [{ filter: '{"cap_status":"Sometimes"}' }, 'filter.cap_status'],
    [{ filter: '[1,2]' }, 'filter'],
  ])('refuses %j at %s', (input, path) => {
    expect(issuesOf(input)).toContain(path);
  });

  it('lists without filters accept only an empty object', () => {
    expect(noFilter.safeParse({}).success).toBe(true);
    expect(noFilter.safeParse({ a: 1 }).success).toBe(false);
  });
});

describe('sort strings', () => {
  it('round-trips', () => {
    const parsed = parseSort('name:DESC,cap_id', ['name', 'cap_id']);
    expect(parsed).toEqual({
      ok: true,
      terms: [
        { field: 'name', direction: 'DESC' },
        { field: 'cap_id', direction: 'ASC' },
      ],
    });
    if (parsed.ok) expect(formatSort(parsed.terms)).toBe('name:DESC,cap_id:ASC');
  });
});

describe('selection', () => {
  const id = '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5';
  it('takes ids, or all with exceptions', () => {
    expect(selectionSchema.parse({ ids: [id] })).toEqual({ ids: [id] });
    expect(selectionSchema.parse({ all: true, search: 'x' })).toEqual({ all: true, except: [], search: 'x' });
  });
  it('refuses an empty or mixed selection', () => {
    expect(selectionSchema.safeParse({ ids: [] }).success).toBe(false);
    expect(selectionSchema.safeParse({ ids: ['not-a-uuid'] }).success).toBe(false);
    expect(selectionSchema.safeParse({ all: false }).success).toBe(false);
    expect(selectionSchema.safeParse({ ids: [id], all: true }).success).toBe(false);
  });
});
