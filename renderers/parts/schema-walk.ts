import type { JSONSchema } from '../../src/contracts/json-schema.js';
import { asSchema, deref, schemaList } from './schema-ref.js';

/** Where a walk is: the root document (for `$ref`s), the refs being expanded above (cycles), the depth. */
export interface WalkContext {
  root: JSONSchema;
  seen: ReadonlySet<string>;
  depth: number;
}

export const MAX_DEPTH = 6;

export function rootContext(root: JSONSchema): WalkContext {
  return { root, seen: new Set(), depth: 0 };
}

/** A schema with its `$ref` resolved, plus the context to use for its children. */
export interface Resolved {
  schema: JSONSchema;
  ctx: WalkContext;
  /** Set when the schema is a `$ref` already being expanded (a recursive type). */
  cycle?: string;
}

export function resolve(schema: JSONSchema, ctx: WalkContext): Resolved {
  const r = deref(schema, ctx.root, ctx.seen);
  const next = { root: ctx.root, seen: r.seen, depth: ctx.depth + 1 };
  return r.cycle ? { schema: r.schema, ctx: next, cycle: r.cycle } : { schema: r.schema, ctx: next };
}

export interface Property {
  name: string;
  schema: JSONSchema;
  required: boolean;
}

/**
 * The properties of an object schema, merging `allOf` members (their `$ref`s resolved). Required names that
 * have no property entry are listed too (with an empty schema): models must still see them.
 */
export function propertiesOf(schema: JSONSchema, ctx: WalkContext): Property[] {
  const props = new Map<string, JSONSchema>();
  const required = new Set<string>();
  const visit = (s: JSONSchema, c: WalkContext, depth: number) => {
    const p = asSchema(s.properties);
    if (p) for (const [name, value] of Object.entries(p)) if (!props.has(name)) props.set(name, asSchema(value) ?? {});
    if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') required.add(r);
    if (depth > MAX_DEPTH) return;
    for (const member of schemaList(s.allOf)) {
      const r = resolve(member, c);
      if (!r.cycle) visit(r.schema, r.ctx, depth + 1);
    }
  };
  visit(schema, ctx, 0);
  for (const name of required) if (!props.has(name)) props.set(name, {});
  return [...props].map(([name, s]) => ({ name, schema: s, required: required.has(name) }));
}

/** The JSON Schema `type` keyword as a list (`'string'` → `['string']`, absent → `[]`). */
export function typesOf(schema: JSONSchema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

export function isObjectLike(schema: JSONSchema): boolean {
  const types = typesOf(schema);
  if (types.length > 0) return types.includes('object');
  return asSchema(schema.properties) !== undefined || Array.isArray(schema.allOf);
}

export function hasProperties(schema: JSONSchema, ctx: WalkContext): boolean {
  return isObjectLike(schema) && propertiesOf(schema, ctx).length > 0;
}

/** JSON text of a value for prompts: compact, stable. */
export function literal(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
