import type { JSONSchema } from '../contracts/json-schema.js';

type Schema = Record<string, unknown>;

const asSchema = (v: unknown): Schema | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : undefined;

/** A local `$ref` (`#/$defs/X`, `#/definitions/X`) resolved inside the tool's own input schema. */
function deref(schema: Schema, root: Schema, depth: number): Schema {
  let s = schema;
  for (let i = 0; i < 8 && typeof s.$ref === 'string'; i++) {
    const ref = s.$ref as string;
    if (!ref.startsWith('#/') || depth > 8) return {};
    let node: unknown = root;
    for (const part of ref.slice(2).split('/')) node = asSchema(node)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    s = asSchema(node) ?? {};
  }
  return s;
}

/** A string a reader recognises as an example of what the parameter holds, from its format or name. */
function exampleString(s: Schema, name: string): string {
  switch (s.format) {
    case 'uri':
    case 'url':
      return 'https://example.com';
    case 'email':
      return 'user@example.com';
    case 'date':
      return '2024-01-31';
    case 'date-time':
      return '2024-01-31T12:00:00Z';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
  }
  // a description that gives an example ("Path to the file (e.g. \"test.xlsx\")") knows best
  const given = typeof s.description === 'string' ? /e\.g\.,?\s*["'`]([^"'`\n]{1,80})["'`]/.exec(s.description) : null;
  if (given?.[1]) return given[1];
  const n = name.toLowerCase();
  if (/url|uri|link/.test(n)) return 'https://example.com';
  if (/(^|_)(file)?path$|file(name|_name)?$|filepath/.test(n)) return 'example.txt';
  if (/dir|folder/.test(n)) return 'example-dir';
  if (/email/.test(n)) return 'user@example.com';
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const text = `example ${name || 'text'}`;
  return text.length >= min ? text : text.padEnd(min, 'x');
}

function exampleNumber(s: Schema, integer: boolean): number {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const exMin = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  let v = min ?? (exMin !== undefined ? exMin + 1 : 1);
  if (max !== undefined && v > max) v = max;
  return integer ? Math.ceil(v) : v;
}

/**
 * An example value that satisfies a JSON Schema in the common cases (const, enum, default, examples, the type's
 * bounds, required properties of objects, minItems of arrays), for the starter suite's expected arguments. A schema
 * with a `pattern` or other constraints it does not read may need the value edited: the suite marks each one TODO.
 */
export function exampleValue(schema: unknown, name = '', root: unknown = schema, depth = 0): unknown {
  const s0 = asSchema(schema);
  if (!s0 || depth > 12) return `example ${name}`;
  const rootSchema = asSchema(root) ?? s0;
  const s = deref(s0, rootSchema, depth);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('default' in s && s.default !== undefined) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = Array.isArray(s[key]) ? (s[key] as unknown[]) : [];
    const pick = options.map(asSchema).find((o) => o && o.type !== 'null');
    if (pick) return exampleValue({ ...s, [key]: undefined, ...pick }, name, rootSchema, depth + 1);
  }
  const types = Array.isArray(s.type) ? (s.type as unknown[]) : [s.type];
  const type = types.find((t) => t !== 'null') ?? (s.properties ? 'object' : s.items ? 'array' : 'string');
  switch (type) {
    case 'integer':
      return exampleNumber(s, true);
    case 'number':
      return exampleNumber(s, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(1, typeof s.minItems === 'number' ? s.minItems : 1);
      const item = exampleValue(s.items, name.replace(/s$/, ''), rootSchema, depth + 1);
      return Array.from({ length: count }, () => item);
    }
    case 'object':
      return exampleObject(s, rootSchema, depth + 1);
    default:
      return exampleString(s, name);
  }
}

/**
 * An object: its required properties, then as many more as `minProperties` asks — optional properties first, then
 * made-up keys valued by `additionalProperties` (a map such as `{ parameters: { rate: 0.05 } }`).
 */
function exampleObject(s: Schema, root: Schema, depth: number): Record<string, unknown> {
  const out = exampleArgs(s as JSONSchema, root, depth);
  const min = typeof s.minProperties === 'number' ? s.minProperties : 0;
  const props = asSchema(s.properties) ?? {};
  for (const [p, ps] of Object.entries(props)) {
    if (Object.keys(out).length >= min) break;
    if (!(p in out)) out[p] = exampleValue(ps, p, root, depth + 1);
  }
  const extra = s.additionalProperties === false ? undefined : (asSchema(s.additionalProperties) ?? {});
  for (let n = 1; extra && Object.keys(out).length < min; n++) {
    const key = n === 1 ? 'example_key' : `example_key_${n}`;
    if (!(key in out)) out[key] = exampleValue(extra, key, root, depth + 1);
  }
  return out;
}

/** Example values of an object schema's required properties (the arguments a call cannot leave out). */
export function exampleArgs(schema: JSONSchema, root: unknown = schema, depth = 0): Record<string, unknown> {
  const s = deref(asSchema(schema) ?? {}, asSchema(root) ?? {}, depth);
  const props = asSchema(s.properties) ?? {};
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  return Object.fromEntries(required.map((p) => [p, exampleValue(props[p] ?? {}, p, root, depth + 1)]));
}
