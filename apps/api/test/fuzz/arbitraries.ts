import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Values for fuzzing the API from its own zod schemas: `shaped(schema)` makes values of
 * roughly the schema's shape (so a request gets past the first checks and reaches the
 * service and the database), and `hostile` is what an attacker or a broken client sends
 * instead: control characters, NUL, huge and deeply nested values, wrong types.
 */

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
type Check = { check?: string; format?: string; value?: number };
const checksOf = (def: Def): Check[] =>
  ((def.checks as { _zod: { def: Check } }[] | undefined) ?? []).map((c) => c._zod.def);

/** Strings that have broken servers before. */
const nastyStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\u202eevil',
  '\uFEFF',
  '\ud800',
  '\r\n\r\n',
  '../../../../etc/passwd',
  "' OR 1=1 --",
  '"); drop table users; --',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  'NaN',
  '-1',
  '1e309',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '{"a":',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  '2026-02-30',
  '9999-99-99',
  'é'.repeat(300),
  '😀'.repeat(100),
];

/** Control characters (NUL included), any Unicode, or a string of some length. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...nastyStrings),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.uuid(),
);

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Any JSON value a field should not get. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308, -1, 0.5),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom([], {}, [null], { __proto__: { admin: true } }, { constructor: { prototype: {} } }),
  fc.tuple(fc.integer({ min: 20, max: 3_000 }), fc.boolean()).map(([depth, asArray]) => nested(depth, 'x', asArray)),
  fc.array(hostileString, { minLength: 500, maxLength: 2_000 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function shapedString(def: Def): fc.Arbitrary<string> {
  const format = (def.format as string | undefined) ?? checksOf(def).find((c) => c.format)?.format;
  switch (format) {
    case 'uuid':
    case 'guid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'date':
      return fc
        .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'datetime':
      return fc
        .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
    default:
      return fc.string({ maxLength: 30 });
  }
}

/** Values of roughly the schema's shape. */
export function shaped(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 8) return fc.constant(undefined);
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return shapedString(def);
    case 'number': {
      const integer = checksOf(def).some((c) => c.format === 'safeint' || c.format === 'int32');
      return integer ? fc.integer({ min: -5, max: 2_000 }) : fc.double({ min: -5, max: 2_000, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'optional':
      return fc.option(shaped(def.innerType, depth + 1), { nil: undefined });
    case 'nullable':
      return fc.option(shaped(def.innerType, depth + 1), { nil: null });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return shaped(def.innerType, depth + 1);
    case 'pipe':
      return shaped(def.in, depth + 1);
    case 'lazy':
      return shaped((def.getter as () => unknown)(), depth + 1);
    case 'array':
      return fc.array(shaped(def.element, depth + 1), { maxLength: 4 });
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map((item) => shaped(item, depth + 1)));
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((option) => shaped(option, depth + 1)));
    case 'intersection':
      return fc
        .tuple(shaped(def.left, depth + 1), shaped(def.right, depth + 1))
        .map(([left, right]) =>
          left && right && typeof left === 'object' && typeof right === 'object' ? { ...left, ...right } : left,
        );
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), shaped(def.valueType, depth + 1), { maxKeys: 3 });
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const fields = Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, shaped(value, depth + 1)]));
      return fc.record(fields);
    }
    default:
      // any, unknown, custom, transform…: anything goes.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The keys an object schema (possibly wrapped, or an intersection of objects) names. */
export function keysOf(schema: unknown): string[] {
  if (!schema) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.keys(def.shape as object);
    case 'intersection':
      return [...keysOf(def.left), ...keysOf(def.right)];
    case 'pipe':
      return keysOf(def.in);
    case 'optional':
    case 'nullable':
    case 'default':
      return keysOf(def.innerType);
    default:
      return [];
  }
}

export type Mutation = { kind: 'replace' | 'remove' | 'add'; path: number[]; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('replace', 'remove', 'add'),
  path: fc.array(fc.nat(), { minLength: 0, maxLength: 4 }),
  value: hostile,
});

/** Applies one mutation at a path chosen by index into whatever objects and arrays it meets. */
export function mutate(value: unknown, change: Mutation): unknown {
  if (value === null || typeof value !== 'object') return change.kind === 'remove' ? undefined : change.value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  const [step, ...rest] = change.path;
  if (step === undefined || keys.length === 0) {
    if (change.kind === 'add' || keys.length === 0) {
      (copy as Record<string, unknown>)[`extra_${change.path.length}`] = change.value;
      return copy;
    }
    return change.value;
  }
  const key = keys[step % keys.length]!;
  const inner = (copy as Record<string, unknown>)[key];
  if (rest.length === 0 || inner === null || typeof inner !== 'object') {
    if (change.kind === 'remove') delete (copy as Record<string, unknown>)[key];
    else if (change.kind === 'replace') (copy as Record<string, unknown>)[key] = change.value;
    else (copy as Record<string, unknown>)[`${key}_extra`] = change.value;
    return copy;
  }
  (copy as Record<string, unknown>)[key] = mutate(inner, { ...change, path: rest });
  return copy;
}

export type ZodSchema = z.ZodType;
