/**
 * What a field list (client-fields.ts, participant-fields.ts) answers about itself: which of
 * its fields carry a flag, in the list's order. Plain values only, no zod: list screens read
 * these lists (docs/design/web-delivery.md).
 */

/** The names of a list's fields whose spec sets `flag` to true (a union of literals). */
export type FieldsWith<List, Flag extends string> = {
  [Name in keyof List]: List[Name] extends { readonly [P in Flag]: true } ? Name : never;
}[keyof List] &
  string;

/** The names of a list's fields whose spec sets `flag` to true, in the list's order. */
export function fieldsWith<List extends object, Flag extends string>(list: List, flag: Flag): FieldsWith<List, Flag>[] {
  return Object.entries(list)
    .filter(([, spec]) => (spec as Partial<Record<Flag, unknown>>)[flag] === true)
    .map(([name]) => name as FieldsWith<List, Flag>);
}

/** A field list's names, in its order. */
export function fieldNames<List extends object>(list: List): (keyof List & string)[] {
  return Object.keys(list) as (keyof List & string)[];
}

/**
 * A list's sort fields (sort-fields.ts): its fields marked `sortable`, then the other columns
 * it sorts by (its times). Made by a call, so the web build leaves out the ones no screen reads.
 */
export function sortableFields<List extends object, More extends string>(
  list: List,
  ...more: More[]
): readonly (FieldsWith<List, 'sortable'> | More)[] {
  return [...fieldsWith(list, 'sortable'), ...more];
}
