import type { AuditEventsQuery } from '@pss/contract';

/**
 * The Audit log's filters as the address keeps them — the API's own names, so a link to the
 * log reads like the call it makes — and as the list and export calls take them.
 */
export interface AuditFilterValues {
  actor_id?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  project_id?: string;
  /** A calendar day, `YYYY-MM-DD`: from its start in the browser's time zone. */
  from?: string;
  /** A calendar day, `YYYY-MM-DD`: to its end (the API's `to` is the next day's start, exclusive). */
  to?: string;
}

export const FILTER_KEYS = [
  'actor_id',
  'action',
  'target_type',
  'target_id',
  'project_id',
  'from',
  'to',
] as const satisfies readonly (keyof AuditFilterValues)[];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const isUuid = (value: string): boolean => UUID.test(value.trim());

/** The longest text the API takes for each text filter (contract: audit.ts). */
const MAX_TEXT = { action: 120, target_type: 60, target_id: 200 } as const;

function validDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d;
}

/**
 * The filters an address holds. A value the API would refuse (a cut-off ID, a day that is not
 * one) is left out rather than sent: a hand-edited link shows the log, not an error.
 */
export function filtersFromParams(params: URLSearchParams): AuditFilterValues {
  const filters: AuditFilterValues = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (!value) continue;
    if ((key === 'actor_id' || key === 'project_id') && !isUuid(value)) continue;
    if ((key === 'from' || key === 'to') && !validDay(value)) continue;
    if (key in MAX_TEXT && value.length > MAX_TEXT[key as keyof typeof MAX_TEXT]) continue;
    filters[key] = value;
  }
  return filters;
}

/** The start of a calendar day in the browser's time zone, as a moment with its offset. */
export function dayStart(day: string, addDays = 0): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + addDays).toISOString();
}

type FilterQuery = Omit<AuditEventsQuery, 'cursor' | 'limit'>;

/** The filters as the list and the export take them: days become moments. */
export function apiFilters(filters: AuditFilterValues): FilterQuery {
  const { from, to, ...rest } = filters;
  return {
    ...rest,
    ...(from ? { from: dayStart(from) } : {}),
    // The last day is the person's: every event up to its end.
    ...(to ? { to: dayStart(to, 1) } : {}),
  };
}

export const hasFilters = (filters: AuditFilterValues): boolean => Object.keys(filters).length > 0;

/** A cursor as the API answers one (digits); anything else starts from the newest page. */
export function cursorFromParams(params: URLSearchParams): string | undefined {
  const cursor = params.get('cursor');
  return cursor && /^[1-9][0-9]{0,15}$/.test(cursor) ? cursor : undefined;
}
