import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { DeclaredRoute } from '../../src/lib/access-control.js';
import { hostile, hostileString, keysOf, mutate, mutation, shaped } from './arbitraries.js';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What was sent, for the report when a case fails. */
  label: string;
}

const brokenJson = ['{', '{"a":1,}', '[1,2', 'nul', '{"email":"\\u0000"}', '"\\ud800"', '{"a":"\\x00"}', ' ', '\u0000'];
const wrongTypes = [
  'text/plain',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
];
const OVERSIZE = Buffer.alloc(1024 * 1024 + 10, 0x20);

/** A query value as a string, the only thing a query can carry. */
const asQueryValue = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

/**
 * Hostile requests for one route, built from its zod schemas: path parameters that are
 * real ids, random ids or hostile strings; query parameters the route knows (and some it
 * does not) with shaped or hostile values; and bodies that are the route's shape with
 * one field broken, removed or added, wholly hostile JSON, broken JSON, raw bytes, the
 * wrong content type, or too large.
 */
export function requestsFor(route: DeclaredRoute, realIds: string[]): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...route.url.matchAll(/:([A-Za-z_]+)|\*/g)].map((m) => m[1] ?? '*');
  // Raw segments are sent as they are: broken percent-encoding, dots.
  const rawSegments = ['%ff', '%', '%zz', '%ED%A0%80', '..', '.', '%2e%2e', '%00'].map((raw) => ({ raw }));
  const paramValue = fc.oneof(
    fc.constantFrom(...realIds),
    fc.uuid(),
    hostileString,
    fc.constantFrom<string | { raw: string }>(...rawSegments),
  );
  const params = fc.tuple(...paramNames.map(() => paramValue));

  const queryKeys = keysOf(route.schema?.querystring);
  const queryValue = (key: string) =>
    fc.oneof(
      shaped(shapeOfKey(route.schema?.querystring, key)).map(asQueryValue),
      hostileString,
      fc.constantFrom('{"a":', '{}', '[]', 'name:ASC,name:DESC', 'x:UP', '-1', '0', '99999999999'),
    );
  const query = fc.record(
    Object.fromEntries([...queryKeys, 'extra'].map((key) => [key, fc.option(queryValue(key), { nil: undefined })])),
  );

  const bodySchema = route.schema?.body;
  const json = (value: unknown) => ({ type: 'application/json', payload: JSON.stringify(value) ?? 'null' });
  const body = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.tuple(shaped(bodySchema), mutation).map(([value, change]) => json(mutate(value, change))),
    },
    { weight: 2, arbitrary: shaped(bodySchema).map(json) },
    { weight: 2, arbitrary: hostile.map(json) },
    { weight: 1, arbitrary: fc.constantFrom(...brokenJson).map((payload) => ({ type: 'application/json', payload })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...wrongTypes), fc.string({ maxLength: 50 }))
        .map(([type, payload]) => ({ type, payload })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 200 })
        .map((bytes) => ({ type: 'application/json', payload: Buffer.from(bytes) as string | Buffer })),
    },
    { weight: 1, arbitrary: fc.constant({ type: 'application/json', payload: OVERSIZE as string | Buffer }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

  return fc.tuple(params, query, body).map(([values, queryValues, sent]) => {
    let i = 0;
    const path = route.url.replace(/:([A-Za-z_]+)|\*/g, () => segment(values[i++] ?? ''));
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(queryValues)) if (value !== undefined) search.append(key, value);
    const url = search.size ? `${path}?${search.toString()}` : path;
    const headers: Record<string, string> = sent ? { 'content-type': sent.type } : {};
    const shown = sent ? (Buffer.isBuffer(sent.payload) ? `<${sent.payload.length} bytes>` : sent.payload) : '';
    return {
      method: route.method,
      url,
      headers,
      payload: sent?.payload,
      label: `${route.method} ${url.slice(0, 300)} [${sent?.type ?? 'no body'}] ${String(shown).slice(0, 300)}`,
    };
  });
}

/** A path segment: encoded, byte by byte where the string is not valid UTF-16 (a lone surrogate). */
function segment(value: string | { raw: string }): string {
  if (typeof value !== 'string') return value.raw;
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

/** The schema of one key of an object schema, looking through wrappers and intersections. */
function shapeOfKey(schema: unknown, key: string): unknown {
  if (!schema) return undefined;
  const def = (schema as { _zod: { def: Record<string, unknown> } })._zod.def;
  switch (def.type) {
    case 'object':
      return (def.shape as Record<string, unknown>)[key];
    case 'intersection':
      return shapeOfKey(def.left, key) ?? shapeOfKey(def.right, key);
    case 'pipe':
      return shapeOfKey(def.in, key);
    case 'optional':
    case 'nullable':
    case 'default':
      return shapeOfKey(def.innerType, key);
    default:
      return undefined;
  }
}

const STACK = /\n\s+at |node:internal|\.[jt]s:\d+:\d+/;
const SQL =
  /\b(select\s.+\sfrom|insert\s+into|update\s.+\sset|delete\s+from)\b|syntax error at|violates .* constraint|duplicate key|relation "|column "|invalid byte sequence/i;

/** What is wrong with an answer to a hostile request, or null when it is a clean refusal or success. */
export function problemWith(
  response: { statusCode: number; body: string; headers: Record<string, unknown> },
  isErrorCode: (code: unknown) => boolean,
): string | null {
  if (response.statusCode >= 500) return `answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  const type = String(response.headers['content-type'] ?? '');
  if (!type.includes('application/json')) return null;
  if (STACK.test(response.body)) return `a stack trace in the body: ${response.body.slice(0, 300)}`;
  if (response.statusCode >= 400) {
    if (SQL.test(response.body)) return `SQL in the body: ${response.body.slice(0, 300)}`;
    let code: unknown;
    try {
      code = (JSON.parse(response.body) as { errorCode?: unknown }).errorCode;
    } catch {
      return `a refusal that is not JSON: ${response.body.slice(0, 200)}`;
    }
    if (!isErrorCode(code)) return `a refusal without a catalogue code: ${response.body.slice(0, 200)}`;
  }
  return null;
}

export type { InjectOptions };
