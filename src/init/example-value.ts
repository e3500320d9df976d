import type { JSONSchema } from '../contracts/json-schema.js';
import { exampleStrings, type ToolHints } from './example-string.js';

export type { ToolHints } from './example-string.js';

type Schema = Record<string, unknown>;

/**
 * The choices an example is made of: at each place where a schema offers alternatives (anyOf/oneOf options, the types
 * of a type list, enum values, a default or examples, string candidates), which one was taken. A place is keyed by the
 * JSON pointer of the value it makes and the kind of choice (`/entities/0/name#string`); `offered` lists the places in
 * the order they were met (outer before inner), with how many alternatives each has.
 */
export interface Variants {
  chosen: Map<string, number>;
  offered: Map<string, number>;
}

export const noVariants = (): Variants => ({ chosen: new Map(), offered: new Map() });

interface Ctx {
  root: Schema;
  hints: ToolHints | undefined;
  variants: Variants;
}

/** Nesting past this is taken for a schema that refers to itself: the value stops there (and fails validation). */
const MAX_DEPTH = 12;

const asSchema = (v: unknown): Schema | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : undefined;

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

/** The alternative taken at a place (the first until told otherwise), registering the place when it has several. */
function pick<T>(ctx: Ctx, place: string, options: readonly T[]): T | undefined {
  if (options.length > 1) ctx.variants.offered.set(place, options.length);
  return options[Math.min(ctx.variants.chosen.get(place) ?? 0, options.length - 1)];
}

/** A local `$ref` (`#/$defs/X`, `#/definitions/X`) resolved inside the tool's own input schema. */
function deref(schema: Schema, root: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 8 && typeof s.$ref === 'string'; i++) {
    const ref = s.$ref as string;
    if (!ref.startsWith('#')) return {};
    let node: unknown = root;
    for (const part of ref.slice(2).split('/').filter(Boolean))
      node = asSchema(node)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    const { $ref: _, ...rest } = s;
    s = { ...(asSchema(node) ?? {}), ...rest };
  }
  return s;
}

/** allOf's subschemas laid over the schema: properties merged, required lists joined, other keywords the last's. */
function mergeAllOf(s: Schema, root: Schema): Schema {
  const parts = Array.isArray(s.allOf) ? s.allOf.map(asSchema).filter((p): p is Schema => p !== undefined) : [];
  let out: Schema = { ...s, allOf: undefined };
  for (const part of parts.map((p) => deref(p, root))) {
    const properties = { ...(asSchema(out.properties) ?? {}), ...(asSchema(part.properties) ?? {}) };
    const required = [
      ...(Array.isArray(out.required) ? out.required : []),
      ...(Array.isArray(part.required) ? part.required : []),
    ];
    out = { ...out, ...part, properties, required, allOf: undefined };
  }
  return out;
}

function exampleNumber(s: Schema, integer: boolean): number {
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  // draft-04 wrote an exclusive bound as `true` beside minimum/maximum
  const exMin = s.exclusiveMinimum === true ? num('minimum') : num('exclusiveMinimum');
  const exMax = s.exclusiveMaximum === true ? num('maximum') : num('exclusiveMaximum');
  const min = s.exclusiveMinimum === true ? undefined : num('minimum');
  const max = s.exclusiveMaximum === true ? undefined : num('maximum');
  let v = min ?? (exMin === undefined ? 1 : integer ? Math.floor(exMin) + 1 : exMin + 1);
  if (max !== undefined && v > max) v = max;
  if (exMax !== undefined && v >= exMax) v = integer ? Math.ceil(exMax) - 1 : ((exMin ?? min ?? exMax - 2) + exMax) / 2;
  if (integer) v = Math.ceil(v);
  const step = num('multipleOf');
  if (step !== undefined && step > 0) {
    v = Math.ceil(v / step) * step;
    if (exMin !== undefined && v <= exMin) v += step;
  }
  return v;
}

/** Items made distinct when the array asks for unique items (copies of one example would not be). */
function distinct(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.map((item, i) => {
    let v = item;
    if (seen.has(JSON.stringify(v))) {
      if (typeof v === 'string') v = `${v} ${i + 1}`;
      else if (typeof v === 'number') v = v + i;
    }
    seen.add(JSON.stringify(v));
    return v;
  });
}

function exampleArray(s: Schema, name: string, path: string, ctx: Ctx, depth: number): unknown[] {
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Number.POSITIVE_INFINITY;
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const count = Math.min(max, Math.max(1, min, tuple?.length ?? 0));
  const rest = tuple ? (s.prefixItems ? s.items : s.additionalItems) : s.items;
  const singular = name.replace(/s$/, '');
  const items = Array.from({ length: count }, (_, i) =>
    valueAt(tuple?.[i] ?? rest ?? {}, singular, pointer(path, i), ctx, depth + 1),
  );
  return s.uniqueItems === true ? distinct(items) : items;
}

/**
 * An object: its required properties, then as many more as `minProperties` asks — optional properties first, then
 * made-up keys valued by `additionalProperties` (a map such as `{ parameters: { rate: 0.05 } }`).
 */
function exampleObject(s: Schema, path: string, ctx: Ctx, depth: number): Record<string, unknown> {
  const props = asSchema(s.properties) ?? {};
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  const out: Record<string, unknown> = {};
  for (const p of required) out[p] = valueAt(props[p] ?? {}, p, pointer(path, p), ctx, depth + 1);
  const min = typeof s.minProperties === 'number' ? s.minProperties : 0;
  for (const [p, ps] of Object.entries(props)) {
    if (Object.keys(out).length >= min) break;
    if (!(p in out)) out[p] = valueAt(ps, p, pointer(path, p), ctx, depth + 1);
  }
  const extra = s.additionalProperties === false ? undefined : (asSchema(s.additionalProperties) ?? {});
  for (let n = 1; extra && Object.keys(out).length < min; n++) {
    const key = n === 1 ? 'example_key' : `example_key_${n}`;
    if (!(key in out)) out[key] = valueAt(extra, key, pointer(path, key), ctx, depth + 1);
  }
  return out;
}

/** Marks "make one from the schema's keywords" among a default's and examples' alternatives. */
const GENERATE = Symbol('generate');

function valueAt(schema: unknown, name: string, path: string, ctx: Ctx, depth: number): unknown {
  const s0 = asSchema(schema);
  if (!s0 || depth > MAX_DEPTH) return `example ${name}`;
  let s = deref(s0, ctx.root);
  if (Array.isArray(s.allOf)) s = mergeAllOf(s, ctx.root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return pick(ctx, `${path}#enum`, s.enum);
  const given: unknown[] = [];
  if ('default' in s && s.default !== undefined) given.push(s.default);
  if (Array.isArray(s.examples)) given.push(...s.examples);
  const source = given.length > 0 ? pick<unknown>(ctx, `${path}#given`, [...given, GENERATE]) : GENERATE;
  if (source !== GENERATE) return source;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (!Array.isArray(s[key])) continue;
    const options = (s[key] as unknown[]).map(asSchema).filter((o): o is Schema => o !== undefined);
    // null last: an example shows a value
    const ordered = [...options.filter((o) => o.type !== 'null'), ...options.filter((o) => o.type === 'null')];
    const option = pick(ctx, `${path}#${key}`, ordered);
    if (option) return valueAt({ ...s, [key]: undefined, ...deref(option, ctx.root) }, name, path, ctx, depth + 1);
  }
  const listed = Array.isArray(s.type) ? (s.type as unknown[]) : s.type === undefined ? [] : [s.type];
  const types = [...listed.filter((t) => t !== 'null'), ...listed.filter((t) => t === 'null')];
  const type = pick(ctx, `${path}#type`, types) ?? (s.properties ? 'object' : s.items ? 'array' : 'string');
  switch (type) {
    case 'integer':
      return exampleNumber(s, true);
    case 'number':
      return exampleNumber(s, false);
    case 'boolean':
      return pick(ctx, `${path}#boolean`, [true, false]);
    case 'null':
      return null;
    case 'array':
      return exampleArray(s, name, path, ctx, depth);
    case 'object':
      return exampleObject(s, path, ctx, depth);
    default:
      return pick(ctx, `${path}#string`, exampleStrings(s, name, ctx.hints));
  }
}

/**
 * An example value for a JSON Schema, for the starter suite's expected arguments: const, enum, default, examples, the
 * type's bounds (minimum/maximum, exclusive ones, multipleOf), string formats, patterns and lengths, required
 * properties and minProperties of objects, items, tuples, minItems/maxItems and uniqueItems of arrays, local $refs,
 * allOf/anyOf/oneOf. `variants` picks other alternatives where the schema offers them (toolExample tries them until
 * the value validates); the value is not checked here.
 */
export function exampleValue(schema: unknown, name = '', hints?: ToolHints, variants = noVariants()): unknown {
  return valueAt(schema, name, '', { root: asSchema(schema) ?? {}, hints, variants }, 0);
}

/** Example values of an object schema's required properties (the arguments a call cannot leave out). */
export function exampleArgs(schema: JSONSchema, hints?: ToolHints, variants = noVariants()): Record<string, unknown> {
  const ctx: Ctx = { root: schema, hints, variants };
  let s = deref(schema, schema);
  if (Array.isArray(s.allOf)) s = mergeAllOf(s, schema);
  const props = asSchema(s.properties) ?? {};
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  return Object.fromEntries(required.map((p) => [p, valueAt(props[p] ?? {}, p, pointer('', p), ctx, 1)]));
}
