import type { JSONSchema } from '../../src/contracts/json-schema.js';

/** A JSON value viewed as a schema object, or undefined when it is not a plain object. */
export function asSchema(value: unknown): JSONSchema | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JSONSchema) : undefined;
}

/** Array entries that are schema objects (for `anyOf`, `oneOf`, `allOf`, tuple `items`). */
export function schemaList(value: unknown): JSONSchema[] {
  return Array.isArray(value) ? value.map(asSchema).filter((s): s is JSONSchema => s !== undefined) : [];
}

/** Last segment of a `$ref`, used as a readable name (`#/$defs/Address` → `Address`). */
export function refName(ref: string): string {
  const last = ref.split('/').pop() ?? ref;
  return decodePointerToken(last) || ref;
}

function decodePointerToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any JSON pointer into the root document).
 * External refs (URLs, other files) are not fetched: renderers are pure, so they return undefined.
 */
export function resolveRef(ref: string, root: JSONSchema): JSONSchema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const token of ref.slice(2).split('/')) {
    const obj = asSchema(node);
    if (!obj) return undefined;
    node = obj[decodePointerToken(token)];
  }
  return asSchema(node);
}

/**
 * Follows `$ref` chains of `schema` against `root`. Sibling keywords next to a `$ref` (e.g. a description)
 * win over the target's. `seen` holds the refs already being expanded higher up: a ref found there is a
 * cycle and is returned unexpanded with `cycle` set.
 */
export function deref(
  schema: JSONSchema,
  root: JSONSchema,
  seen: ReadonlySet<string> = new Set(),
): { schema: JSONSchema; seen: ReadonlySet<string>; cycle?: string } {
  let current = schema;
  let chain = seen;
  for (let hops = 0; hops < 32; hops++) {
    const ref = current.$ref;
    if (typeof ref !== 'string') return { schema: current, seen: chain };
    if (chain.has(ref)) return { schema: current, seen: chain, cycle: ref };
    const target = resolveRef(ref, root);
    if (!target) return { schema: withoutRef(current), seen: chain };
    chain = new Set([...chain, ref]);
    current = { ...target, ...withoutRef(current) };
  }
  return { schema: withoutRef(current), seen: chain };
}

function withoutRef(schema: JSONSchema): JSONSchema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}
