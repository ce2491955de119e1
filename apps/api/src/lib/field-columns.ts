import type { AnyColumn } from 'drizzle-orm';

/**
 * Where a contract's field list (client-fields.ts, participant-fields.ts) meets its table: a
 * field's column is its wire name in camelCase (`cap_id` → `capId`), so the mapping between a
 * row and the wire is written once, here, not a line per field in each service. A field whose
 * column is missing fails type checking where its list is mapped.
 */

/** A wire name's key in a row: `cap_id` → `capId`. */
export type RowKey<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<RowKey<Tail>>}`
  : Name;

export function rowKey<Name extends string>(name: Name): RowKey<Name> {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as RowKey<Name>;
}

/** What has a key for each of the fields: a table (its columns), a row. */
type Keyed<Name extends string, Value> = { [N in Name as RowKey<N>]: Value };

/** Each field's column in `table`, by the field's wire name. */
export function fieldColumns<Name extends string, Table extends Keyed<Name, AnyColumn>>(
  names: readonly Name[],
  table: Table,
): { [N in Name]: Table[RowKey<N> & keyof Table] } {
  return Object.fromEntries(names.map((name) => [name, (table as Record<string, AnyColumn>)[rowKey(name)]])) as {
    [N in Name]: Table[RowKey<N> & keyof Table];
  };
}

/** A row's fields as the wire has them: each under its wire name. */
export function wireFields<Name extends string, Row extends Keyed<Name, unknown>>(
  names: readonly Name[],
  row: Row,
): { [N in Name]: Row[RowKey<N> & keyof Row] } {
  const wire: Partial<Record<Name, unknown>> = {};
  for (const name of names) wire[name] = (row as Record<string, unknown>)[rowKey(name)];
  return wire as { [N in Name]: Row[RowKey<N> & keyof Row] };
}

/** A body's value as a row takes it: left out (undefined) becomes null. */
type Stored<Value> = undefined extends Value ? Exclude<Value, undefined> | null : Value;

/** A body's fields as a new row takes them: a field left out is null. */
export function rowFields<Name extends string, Body extends Partial<Record<Name, unknown>>>(
  names: readonly Name[],
  body: Body,
): { [N in Name as RowKey<N>]: Stored<Body[N]> } {
  const row: Record<string, unknown> = {};
  for (const name of names) row[rowKey(name)] = body[name] ?? null;
  return row as { [N in Name as RowKey<N>]: Stored<Body[N]> };
}

/**
 * A body's fields as an update takes them: a field left out stays undefined, which drizzle
 * leaves as it is, unless `clearedWhenLeftOut` says it is cleared (null).
 */
export function rowChanges<Name extends string, Body extends Partial<Record<Name, unknown>>>(
  names: readonly Name[],
  body: Body,
  clearedWhenLeftOut: (name: Name) => boolean,
): { [N in Name as RowKey<N>]?: Stored<Body[N]> } {
  const row: Record<string, unknown> = {};
  // A null (a field sent as '' or null) clears it; only a field left out is undefined.
  for (const name of names)
    row[rowKey(name)] = body[name] !== undefined ? body[name] : clearedWhenLeftOut(name) ? null : undefined;
  return row as { [N in Name as RowKey<N>]?: Stored<Body[N]> };
}
