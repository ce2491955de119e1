import { describe, expect, it } from 'vitest';
import { apiFilters, cursorFromParams, dayStart, filtersFromParams, hasFilters } from './audit-filters';

const id = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

describe('filtersFromParams', () => {
  it('reads the filters the address holds, by the API’s names', () => {
    const params = new URLSearchParams({
      actor_id: id,
      action: ' cases.update ',
      target_type: 'case',
      target_id: 'abc',
      project_id: id,
      from: '2026-11-01',
      to: '2026-11-26',
      cursor: '812',
      other: 'x',
    });
    expect(filtersFromParams(params)).toEqual({
      actor_id: id,
      action: 'cases.update',
      target_type: 'case',
      target_id: 'abc',
      project_id: id,
      from: '2026-11-01',
      to: '2026-11-26',
    });
  });

  it('leaves out what the API would refuse: a cut-off ID, a day that is not one, a text too long', () => {
    const params = new URLSearchParams({
      actor_id: id.slice(0, 20),
      project_id: 'nope',
      from: '2026-02-30',
      to: '26-11-2026',
      action: 'x'.repeat(121),
      target_type: '   ',
    });
    expect(filtersFromParams(params)).toEqual({});
    expect(hasFilters({})).toBe(false);
  });
});

describe('apiFilters', () => {
  it('turns the days into moments: from the first day’s start to the last day’s end', () => {
    const query = apiFilters({ action: 'cases.update', from: '2026-11-01', to: '2026-11-26' });
    expect(query).toEqual({
      action: 'cases.update',
      from: new Date(2026, 10, 1).toISOString(),
      to: new Date(2026, 10, 27).toISOString(),
    });
  });

  it('crosses a month’s end', () => {
    expect(dayStart('2026-01-31', 1)).toBe(new Date(2026, 1, 1).toISOString());
  });
});

describe('cursorFromParams', () => {
  it('takes a cursor the API answers, and starts from the newest for anything else', () => {
    expect(cursorFromParams(new URLSearchParams('cursor=812'))).toBe('812');
    expect(cursorFromParams(new URLSearchParams('cursor=0'))).toBeUndefined();
    expect(cursorFromParams(new URLSearchParams('cursor=abc'))).toBeUndefined();
    expect(cursorFromParams(new URLSearchParams(''))).toBeUndefined();
  });
});
