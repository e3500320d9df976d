import type { JSONSchema } from '../contracts/json-schema.js';
import type { ParseTool } from '../contracts/parse.js';
import { resolveToolName } from '../util/resolve-tool-name.js';
import { parseJsonText } from './json-args.js';

/** An argument value read from text, and whether reading it needed jsonrepair. */
export interface TextValue {
  value: unknown;
  repaired: boolean;
}

/** The JSON types a schema allows, in the order a text value is tried against them (string last: it always fits). */
type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'object' | 'array' | 'string';
const ORDER: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'object', 'array', 'string'];

/** `$ref`s followed (and `anyOf` levels entered) before a schema counts as unknown: real schemas need a few. */
const MAX_SCHEMA_DEPTH = 8;

/**
 * Converts the text a model wrote for one parameter (`<parameter=n>3</parameter>`, `<arg_value>3</arg_value>`,
 * `<n>3</n>`) into the value it stands for, by the JSON Schema of that parameter, as the reference tool parsers of
 * the serving stacks do:
 * - `integer` / `number`: the number when the text is one (`3`, `-2.5`, `1e3`); other text stays text, so the grader
 *   reports the wrong type instead of the parser hiding it;
 * - `boolean`: `true` / `false` in any case; `null`: `null` in any case (also for a non-string type, as the reference
 *   parsers read it);
 * - `object` / `array`: the JSON (parseJsonText: repaired when jsonrepair was needed, flagged);
 * - `string`: the text as written;
 * - several types (`anyOf`, `oneOf`, a type array, an `enum` of mixed values, OpenAPI's `nullable`): tried null,
 *   boolean, integer, number, object, array, then string; the first that reads the text decides (`allOf` allows the
 *   types every member allows);
 * - no schema (no tools, an unknown parameter, a `$ref` that cannot be resolved, a schema with no type): the text,
 *   unless the whole value is a JSON literal (`3`, `true`, `[1, 2]`), which is parsed.
 * In every case one line break right after the open tag and one right before the close tag are layout, not value,
 * and are removed; everything else (tag-like text, code fences, indentation) is kept as written.
 */
export function textValue(raw: string, schema?: JSONSchema, root?: JSONSchema): TextValue {
  const text = withoutLayout(raw);
  const types = schema ? typesOf(schema, root ?? schema, 0) : undefined;
  if (!types || types.size === 0) return untyped(text);
  const literal = text.trim();
  for (const type of ORDER) {
    if (!types.has(type)) continue;
    const read = readAs(type, text, literal);
    if (read) return read;
  }
  // nothing the schema allows reads the text: `null` still means null, anything else stays as written
  if (/^null$/i.test(literal)) return { value: null, repaired: false };
  return { value: text, repaired: false };
}

/** Type names as families write them in a value's type attribute or tag (`int`, `dict`, …), to JSON Schema's. */
const TYPE_NAMES: ReadonlyMap<string, JsonType> = new Map([
  ['string', 'string'],
  ['str', 'string'],
  ['text', 'string'],
  ['integer', 'integer'],
  ['int', 'integer'],
  ['number', 'number'],
  ['float', 'number'],
  ['double', 'number'],
  ['boolean', 'boolean'],
  ['bool', 'boolean'],
  ['null', 'null'],
  ['none', 'null'],
  ['object', 'object'],
  ['dict', 'object'],
  ['array', 'array'],
  ['list', 'array'],
]);

/**
 * Converts a value whose type the model wrote next to it (Kimi K3's `type="integer"`, K2 Horizon's
 * `<ifm|arg_type>`) as that type says, by textValue with that type as the schema: `string` keeps the text as written,
 * `integer` reads `3` as 3, `object` parses JSON, and text the type does not read stays text (the grader then says the
 * type is wrong). A type name it does not know reads the value as an untyped one.
 */
export function typedValue(raw: string, type: string): TextValue {
  const json = TYPE_NAMES.get(type.trim().toLowerCase());
  return json ? textValue(raw, { type: json }) : textValue(raw);
}

/**
 * The schema of each parameter of the called tool, looked up among the offered tools by the called name (exact,
 * server-qualified or provider-safe, as resolveToolName decides), with the tool's input schema as the root for
 * `$ref`s. A name that resolves to no single tool, or a tool without a schema, gives no schemas.
 */
export function parameterSchemas(
  tools: readonly ParseTool[],
  called: string,
): (param: string) => { schema?: JSONSchema; root?: JSONSchema } {
  const tool = toolFor(tools, called);
  const root = tool?.inputSchema;
  const properties = root && isSchema(root.properties) ? root.properties : undefined;
  return (param) => {
    if (!root || !properties || !Object.hasOwn(properties, param)) return {};
    const schema = properties[param];
    return isSchema(schema) ? { schema, root } : {};
  };
}

/** Converts a parameter's text by the schema `parameterSchemas` found for it. */
export function parameterValue(
  raw: string,
  schemas: (param: string) => { schema?: JSONSchema; root?: JSONSchema },
  param: string,
): TextValue {
  const { schema, root } = schemas(param);
  return textValue(raw, schema, root);
}

function toolFor(tools: readonly ParseTool[], called: string): ParseTool | undefined {
  if (tools.length === 0) return undefined;
  const exact = tools.find((t) => t.name === called);
  if (exact) return exact;
  const resolution = resolveToolName(called, tools);
  if (resolution.how === 'ambiguous' || resolution.how === 'unknown') return undefined;
  return tools.find((t) => t.name === resolution.tool);
}

/** One line break after the open tag and one before the close tag are the tag's layout. */
function withoutLayout(raw: string): string {
  let start = 0;
  let end = raw.length;
  if (raw.startsWith('\r\n')) start = 2;
  else if (raw.startsWith('\n')) start = 1;
  if (end - start >= 2 && raw.endsWith('\r\n')) end -= 2;
  else if (end - start >= 1 && raw.endsWith('\n')) end -= 1;
  return raw.slice(start, end);
}

/** No schema: a whole JSON literal is parsed, any other text (`"3"` with its quotes included) stays as written. */
function untyped(text: string): TextValue {
  const literal = text.trim();
  if (!looksLikeJsonLiteral(literal)) return { value: text, repaired: false };
  try {
    return { value: JSON.parse(literal), repaired: false };
  } catch {
    // not JSON after all (`[a, b]`, `1.2.3`): the text as written
    return { value: text, repaired: false };
  }
}

function looksLikeJsonLiteral(s: string): boolean {
  if (s === 'true' || s === 'false' || s === 'null') return true;
  const first = s[0];
  const last = s[s.length - 1];
  if ((first === '[' && last === ']') || (first === '{' && last === '}')) return true;
  return NUMBER.test(s);
}

/** A number as JSON, Python and the reference parsers' float() read it (no hex, no inf/nan). */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function readAs(type: JsonType, text: string, literal: string): TextValue | undefined {
  switch (type) {
    case 'null':
      return /^null$/i.test(literal) ? { value: null, repaired: false } : undefined;
    case 'boolean':
      if (/^true$/i.test(literal)) return { value: true, repaired: false };
      if (/^false$/i.test(literal)) return { value: false, repaired: false };
      return undefined;
    case 'integer':
    case 'number': {
      if (!NUMBER.test(literal)) return undefined;
      const n = Number(literal);
      // a fraction for an integer is still the number the model wrote: the grader says it is not an integer
      return Number.isFinite(n) ? { value: n, repaired: false } : undefined;
    }
    case 'object':
    case 'array': {
      const open = type === 'object' ? '{' : '[';
      if (!literal.startsWith(open)) return undefined;
      const parsed = parseJsonText(literal);
      if (!parsed.ok) return undefined;
      const v = parsed.value;
      const fits = type === 'array' ? Array.isArray(v) : typeof v === 'object' && v !== null && !Array.isArray(v);
      return fits ? { value: v, repaired: parsed.repaired } : undefined;
    }
    case 'string':
      return { value: text, repaired: false };
  }
}

/**
 * The JSON types a schema allows: its `type` (a name or an array), its `anyOf` / `oneOf` members', an `enum`'s or
 * `const`'s values', what a resolvable local `$ref` points at. Undefined when the schema says nothing usable (an
 * unresolvable `$ref` anywhere makes the whole schema unknown: guessing from the rest could mistype the value).
 */
function typesOf(schema: JSONSchema, root: JSONSchema, depth: number): Set<JsonType> | undefined {
  if (depth > MAX_SCHEMA_DEPTH) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, root);
    return target ? typesOf(target, root, depth + 1) : undefined;
  }
  const types = new Set<JsonType>();
  const add = (t: unknown) => {
    if (ORDER.includes(t as JsonType)) types.add(t as JsonType);
  };
  if (typeof schema.type === 'string') add(schema.type);
  else if (Array.isArray(schema.type)) for (const t of schema.type) add(t);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key];
    if (!Array.isArray(members)) continue;
    for (const m of members) {
      if (!isSchema(m)) continue;
      const inner = typesOf(m, root, depth + 1);
      if (!inner) return undefined;
      for (const t of inner) types.add(t);
    }
  }
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  for (const v of values) add(valueType(v));
  if (schema.nullable === true && types.size > 0) types.add('null');
  // allOf: every member holds, so only the types all typed members allow (pydantic wraps a $ref in one)
  if (Array.isArray(schema.allOf)) {
    let all: Set<JsonType> | undefined = types.size > 0 ? new Set(types) : undefined;
    for (const m of schema.allOf) {
      if (!isSchema(m)) continue;
      const inner = typesOf(m, root, depth + 1);
      if (!inner) {
        if (typeof m.$ref === 'string') return undefined;
        continue;
      }
      all = all ? new Set([...all].filter((t) => inner.has(t))) : inner;
    }
    return all && all.size > 0 ? all : undefined;
  }
  return types.size > 0 ? types : undefined;
}

function valueType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'object') return 'object';
  return 'string';
}

/** A local `#/…` JSON pointer into the tool's input schema (`#/$defs/Unit`); anything else is not resolvable here. */
function resolveRef(ref: string, root: JSONSchema): JSONSchema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return isSchema(at) ? at : undefined;
}

function isSchema(v: unknown): v is JSONSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
