import type { JSONSchema } from '../../src/contracts/json-schema.js';
import type { ProviderKind } from '../../src/contracts/model.js';
import { ToolgaugeError } from '../../src/errors.js';
import { asSchema, deref, refName, schemaList } from './schema-ref.js';

/** A property as every native tool API accepts it (Ollama's `Tool` type is the narrowest). */
export interface PropertySchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: unknown;
  [key: string]: unknown;
}

/** A tool's parameters in the shape all providers require: a top-level object with `properties`. */
export interface ObjectSchema {
  type: 'object';
  properties: Record<string, PropertySchema>;
  required?: string[];
  [key: string]: unknown;
}

export function isObjectSchema(schema: unknown): schema is ObjectSchema {
  const s = asSchema(schema);
  return s !== undefined && s.type === 'object' && asSchema(s.properties) !== undefined;
}

/**
 * Whether `$ref`s are inlined by default. OpenAI and Anthropic accept `$defs`/`$ref` in tool schemas; Ollama's
 * server parses parameters into a fixed struct that drops them, and openai-compatible servers (vLLM, llama.cpp)
 * vary, so those get self-contained schemas, as does a kind this does not know (a user's provider).
 */
export function inlinesRefs(kind: ProviderKind): boolean {
  return kind !== 'openai' && kind !== 'anthropic';
}

/**
 * Normalises an MCP `inputSchema` for a provider's native tool API:
 * - drops `$schema`/`$id`; forces a top-level `type: 'object'` with `properties` (merging top-level
 *   `allOf`/`anyOf`/`oneOf` object members, as MCP servers generated from unions publish them);
 * - lists required names that lack a property entry as properties (empty schema);
 * - inlines `$ref`s (recursive refs become a described `object`) when `inlineRefs` (default per provider);
 * - for Ollama, turns `anyOf`/`oneOf` of plain types into a `type` list, the only union its struct keeps.
 * The input is not modified.
 */
export function normalizeSchema(
  input: JSONSchema,
  kind: ProviderKind,
  options: { inlineRefs?: boolean } = {},
): ObjectSchema {
  const cloned = (JSON.parse(JSON.stringify(input ?? {})) ?? {}) as JSONSchema;
  let schema = (options.inlineRefs ?? inlinesRefs(kind)) ? inlineAll(cloned) : cloned;
  schema = topLevelObject(schema);
  if (kind === 'ollama') schema = mapProperties(schema, ollamaUnions);
  const { $schema: _s, $id: _i, type: _t, properties, required, ...rest } = schema;
  const props: Record<string, PropertySchema> = {};
  // Own properties only, defined rather than assigned: parameters named `toString` or `__proto__` are parameters.
  const define = (name: string, value: PropertySchema) =>
    Object.defineProperty(props, name, { value, enumerable: true, writable: true, configurable: true });
  for (const [name, value] of Object.entries(asSchema(properties) ?? {})) define(name, asSchema(value) ?? {});
  const req = Array.isArray(required) ? [...new Set(required.filter((r): r is string => typeof r === 'string'))] : [];
  for (const name of req) if (!Object.hasOwn(props, name)) define(name, {});
  return { type: 'object', properties: props, ...(req.length > 0 ? { required: req } : {}), ...rest };
}

/** Top-level must be an object schema; unions/intersections of objects are flattened into one. */
function topLevelObject(schema: JSONSchema): JSONSchema {
  const { allOf, anyOf, oneOf, ...rest } = schema;
  const all = schemaList(allOf);
  const some = [...schemaList(anyOf), ...schemaList(oneOf)];
  if (all.length === 0 && some.length === 0) return schema;
  const properties: Record<string, unknown> = { ...(asSchema(rest.properties) ?? {}) };
  const required = new Set(Array.isArray(rest.required) ? rest.required : []);
  for (const member of [...all, ...some]) {
    const resolved = deref(member, schema).schema;
    for (const [name, value] of Object.entries(asSchema(resolved.properties) ?? {})) {
      if (!Object.hasOwn(properties, name))
        Object.defineProperty(properties, name, { value, enumerable: true, writable: true, configurable: true });
    }
    // Only intersections make their members' requirements binding; a union member's are not.
    if (all.includes(member) && Array.isArray(resolved.required)) for (const r of resolved.required) required.add(r);
  }
  return { ...rest, type: 'object', properties, required: [...required] };
}

/** Replaces every `$ref` with its target; drops `$defs`/`definitions` afterwards. */
function inlineAll(root: JSONSchema): JSONSchema {
  const literalKeys = new Set(['enum', 'const', 'default', 'examples']);
  const nameMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
  // `names`: the node maps names to schemas (under `properties`…), so its keys are never keywords.
  const walk = (node: unknown, seen: ReadonlySet<string>, depth: number, names = false): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen, depth));
    const s = asSchema(node);
    if (!s) return node;
    if (names) {
      const out: JSONSchema = {};
      for (const [key, value] of Object.entries(s)) out[key] = walk(value, seen, depth + 1);
      return out;
    }
    let current = s;
    let chain = seen;
    if (typeof s.$ref === 'string') {
      const r = deref(s, root, seen);
      if (r.cycle || seen.size >= 8) {
        const { $ref: _r, ...siblings } = s;
        const name = refName(String(r.cycle ?? s.$ref));
        return { type: 'object', description: `(recursive ${name})`, ...siblings };
      }
      current = r.schema;
      chain = r.seen;
    }
    const out: JSONSchema = {};
    for (const [key, value] of Object.entries(current)) {
      if (depth === 0 && (key === '$defs' || key === 'definitions')) continue;
      // Values (enum, default…) are data, not schemas: a `$ref` key inside them is left alone.
      out[key] = literalKeys.has(key) ? value : walk(value, chain, depth + 1, nameMaps.has(key));
    }
    return out;
  };
  return walk(root, new Set(), 0) as JSONSchema;
}

function mapProperties(schema: JSONSchema, fn: (p: JSONSchema) => JSONSchema): JSONSchema {
  const props = asSchema(schema.properties);
  if (!props) return schema;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) out[name] = fn(asSchema(value) ?? {});
  return { ...schema, properties: out };
}

/** `anyOf: [{type: string}, {type: null}]` → `type: ['string', 'null']` when every member is a bare type. */
function ollamaUnions(prop: JSONSchema): JSONSchema {
  if (prop.type !== undefined) return prop;
  const members = [...schemaList(prop.anyOf), ...schemaList(prop.oneOf)];
  if (members.length === 0) return prop;
  const bare = members.every((m) => typeof m.type === 'string' && Object.keys(m).every((k) => k === 'type'));
  if (!bare) return prop;
  const { anyOf: _a, oneOf: _o, ...rest } = prop;
  return { ...rest, type: [...new Set(members.map((m) => String(m.type)))] };
}

/**
 * `RenderedTool.parameters` typed as the object schema providers require (what native renderers produce).
 * Throws on anything else: a non-object schema there is a harness bug, not a model mistake.
 */
export function asObjectSchema(schema: unknown): ObjectSchema {
  if (isObjectSchema(schema)) return schema;
  throw new ToolgaugeError('INTERNAL', 'tool parameters are not a normalised object schema', { schema });
}
