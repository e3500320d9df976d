import type { JSONSchema } from '../contracts/json-schema.js';
import { setKey } from '../util/set-key.js';
import { skipSpace } from './json-scan.js';
import { type TextValue, textValue } from './text-values.js';

/** The longest element name read (parameter names are short; tool names at most 64 characters on native APIs). */
const MAX_NAME = 64;
/** More elements than this at one level is garbage, not arguments. */
const MAX_ELEMENTS = 200;
/** Nested elements read as objects or lists this deep at most; deeper text stays text. */
const MAX_DEPTH = 8;

/** A schema and the root its `$ref`s resolve against, as parameterSchemas hands them out. */
export interface SchemaAt {
  schema?: JSONSchema;
  root?: JSONSchema;
}

/**
 * `<name>` at `at`, a bare element name (`[A-Za-z_][\w.:-]*`, no attributes): the name and just past its `>`; undefined
 * when it is not such an open tag. Char codes, no regex: it is tried at many `<` of a reply.
 */
export function openTagAt(text: string, at: number): { name: string; end: number } | undefined {
  if (text.charCodeAt(at) !== 60 || !isNameStart(text.charCodeAt(at + 1))) return undefined;
  const limit = Math.min(text.length, at + 2 + MAX_NAME);
  for (let i = at + 2; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 62) return { name: text.slice(at + 1, i), end: i + 1 };
    if (!isNameStart(c) && !(c >= 48 && c <= 57) && c !== 46 && c !== 58 && c !== 45) return undefined;
  }
  return undefined;
}

/** `[A-Za-z_]` */
function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/**
 * A value written as a CDATA section (`<![CDATA[a < b]]>`, as MiniCPM writes multi-line text) is its content, taken as
 * written; other text is returned unchanged. Space around the section is layout.
 */
export function unwrapCdata(raw: string): { text: string; cdata: boolean } {
  const t = raw.trim();
  if (!t.startsWith(CDATA_OPEN) || !t.endsWith(CDATA_CLOSE) || t.length < CDATA_OPEN.length + CDATA_CLOSE.length) {
    return { text: raw, cdata: false };
  }
  return { text: t.slice(CDATA_OPEN.length, t.length - CDATA_CLOSE.length), cdata: true };
}

/** Converts one element's text by its schema; a CDATA section is text as written (a string unless the schema says not). */
export function elementValue(raw: string, at: SchemaAt): TextValue {
  const { text, cdata } = unwrapCdata(raw);
  if (cdata && !at.schema) return { value: text, repaired: false };
  return textValue(text, at.schema, at.root);
}

export type ElementArgs = { value: Record<string, unknown>; repaired: boolean; end: number } | { error: string };

/**
 * Parameters written as child elements named after them (`<city>Oslo</city><days>3</days>`), as MiniMax M3 writes an
 * invoke's body: from `from` (the first element) to `end`. A value runs to the first `</name>` after it (an unclosed one
 * to `end`, and the reading stops there); text between elements ends the reading. A value that is itself elements is an
 * object (its children by name) or, when its children are `<item>` elements or the schema says array, a list; other
 * values are converted by the parameter's schema (elementValue). `schemaOf` gives a parameter's schema. Reads at most
 * MAX_ELEMENTS per level and MAX_DEPTH levels; each close tag is found by one forward search.
 */
export function readChildElements(
  text: string,
  source: string,
  from: number,
  end: number,
  schemaOf: (name: string) => SchemaAt,
): ElementArgs {
  const read = elements(text, source, from, end, schemaOf, 0);
  if ('error' in read) return read;
  const value: Record<string, unknown> = {};
  for (const [name, v] of read.entries) setKey(value, name, v);
  return { value, repaired: read.repaired, end: read.end };
}

type Entries = { entries: Array<[string, unknown]>; repaired: boolean; end: number } | { error: string };

function elements(
  text: string,
  source: string,
  from: number,
  end: number,
  schemaOf: (name: string) => SchemaAt,
  depth: number,
): Entries {
  const entries: Array<[string, unknown]> = [];
  let repaired = false;
  let pos = skipSpace(text, from, end);
  while (pos < end) {
    const tag = openTagAt(text, pos);
    if (!tag || tag.end > end) break;
    if (entries.length >= MAX_ELEMENTS) return { error: `more than ${MAX_ELEMENTS} parameter elements` };
    const close = `</${tag.name}>`;
    const at = text.indexOf(close, tag.end);
    const closed = at >= 0 && at + close.length <= end;
    const valueEnd = closed ? at : end;
    const read = nestedOrText(text, source, tag.end, valueEnd, schemaOf(tag.name), depth);
    entries.push([tag.name, read.value]);
    repaired ||= read.repaired;
    if (!closed) return { entries, repaired, end };
    pos = skipSpace(text, at + close.length, end);
  }
  return { entries, repaired, end: pos };
}

/** An element's value: nested elements (an object, or a list of `<item>`s) or text. */
function nestedOrText(text: string, source: string, from: number, to: number, at: SchemaAt, depth: number): TextValue {
  const first = skipSpace(text, from, to);
  const inner = first < to ? openTagAt(text, first) : undefined;
  const types = typeNames(at.schema);
  if (!inner || depth >= MAX_DEPTH || (types.size > 0 && !types.has('object') && !types.has('array'))) {
    return elementValue(source.slice(from, to), at);
  }
  const asList = inner.name === 'item' || (types.has('array') && !types.has('object'));
  const items = itemsSchema(at);
  const read = elements(text, source, first, to, (name) => (asList ? items : propertySchema(at, name)), depth + 1);
  if ('error' in read || skipSpace(text, read.end, to) < to) return elementValue(source.slice(from, to), at);
  if (asList) return { value: read.entries.map(([, v]) => v), repaired: read.repaired };
  const value: Record<string, unknown> = {};
  for (const [name, v] of read.entries) setKey(value, name, v);
  return { value, repaired: read.repaired };
}

function typeNames(schema: JSONSchema | undefined): Set<string> {
  const t = schema?.type;
  return new Set(
    typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [],
  );
}

function propertySchema(at: SchemaAt, name: string): SchemaAt {
  const props = at.schema?.properties;
  if (!props || typeof props !== 'object' || !Object.hasOwn(props, name)) return {};
  const schema = (props as Record<string, unknown>)[name];
  return typeof schema === 'object' && schema !== null
    ? { schema: schema as JSONSchema, root: at.root ?? at.schema }
    : {};
}

function itemsSchema(at: SchemaAt): SchemaAt {
  const items = at.schema?.items;
  return typeof items === 'object' && items !== null && !Array.isArray(items)
    ? { schema: items as JSONSchema, root: at.root ?? at.schema }
    : {};
}
