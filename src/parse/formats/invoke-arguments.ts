import { setKey } from '../../util/set-key.js';
import { elementValue, openTagAt, readChildElements } from '../child-elements.js';
import type { FinderContext } from '../found-call.js';
import { parseJsonText } from '../json-args.js';
import { skipSpace } from '../json-scan.js';
import type { TagBodies } from '../tag-bodies.js';
import { parameterSchemas, type TextValue, textValue } from '../text-values.js';
import type { InvokeDialect } from './invoke-xml.js';

/** More parameters than this in one call is garbage, not a call. */
const MAX_PARAMETERS = 200;
/** An open tag's attributes are looked for within this many characters (keeps the scan linear). */
const MAX_TAG = 300;
const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/** What the argument reader needs of the invoke reader: the reply, the dialect and its cached forward searches. */
export interface InvokeReading {
  readonly text: string;
  readonly ctx: FinderContext;
  readonly d: InvokeDialect;
  /** Where `needle` next occurs at or after `from` (a forward search per needle). */
  search(needle: string, from: number): number;
  /** The bodies of one open/close tag pair (one TagBodies per pair). */
  tagBodies(open: string, close: string): TagBodies;
}

export type InvokeArgs = { value: Record<string, unknown>; repaired: boolean } | { error: string };

/**
 * The arguments of one invoke, its body from `bodyStart` to `bodyEnd`, in whichever of three ways the body is written:
 * - parameter elements, `<parameter name="city">Oslo</parameter>` (the dialect's element and prefix), each value
 *   converted by the offered tool's schema (textValue) or, in DSML, by its `string` attribute; a value written as a
 *   CDATA section is its content;
 * - a JSON object of arguments, as DSML invokes sometimes hold instead of parameter tags;
 * - child elements named after the parameters, `<city>Oslo</city>` (MiniMax M3; nested elements are objects, `<item>`
 *   lists: readChildElements).
 * An unclosed parameter runs to the next parameter or the invoke's end.
 */
export function readInvokeArguments(
  r: InvokeReading,
  prefix: string,
  tool: string,
  bodyStart: number,
  bodyEnd: number,
): InvokeArgs {
  const { text, ctx, d } = r;
  const open = `<${prefix}${d.parameter ?? 'parameter'} name=`;
  const first = skipSpace(text, bodyStart, bodyEnd);
  const schemas = parameterSchemas(ctx.tools, tool);
  const tagged = r.search(open, first);
  if (tagged < 0 || tagged >= bodyEnd) {
    if (text[first] === '{') return jsonBody(ctx.source.slice(first, bodyEnd));
    const child = openTagAt(text, first);
    if (child && first < bodyEnd) {
      const read = readChildElements(text, ctx.source, first, bodyEnd, schemas);
      return 'error' in read ? read : { value: read.value, repaired: read.repaired };
    }
  }
  return taggedParameters(r, prefix, schemas, first, bodyEnd);
}

function taggedParameters(
  r: InvokeReading,
  prefix: string,
  schemas: ReturnType<typeof parameterSchemas>,
  from: number,
  bodyEnd: number,
): InvokeArgs {
  const { text, ctx, d } = r;
  const element = d.parameter ?? 'parameter';
  // `<parameter` alone, in a value's text, opens nothing: a parameter has a name
  const open = `<${prefix}${element} name=`;
  const close = `</${prefix}${element}>`;
  const values = r.tagBodies(open, close);
  const value: Record<string, unknown> = {};
  let repaired = false;
  let count = 0;
  let pos = from;
  while (pos < bodyEnd) {
    const start = r.search(open, pos);
    if (start < 0 || start >= bodyEnd) break;
    if (++count > MAX_PARAMETERS) return { error: `more than ${MAX_PARAMETERS} parameters` };
    const attrsAt = start + open.length - 'name='.length;
    const head = openTagEnd(text, attrsAt, bodyEnd);
    if (!head.closed) break; // cut inside the parameter's open tag: nothing of its value was written
    const attrs = attributes(text.slice(attrsAt, head.end));
    const param = (attrs.get('name') ?? '').trim();
    const valueStart = head.end + 1;
    // a close tag inside a CDATA section is the value's text
    const v = values.from(cdataEnd(r, valueStart, bodyEnd));
    const valueEnd = Math.min(v.bodyEnd, bodyEnd);
    if (param === '') return { error: `a parameter at ${start} has no name` };
    const read = parameterText(d, ctx.source.slice(valueStart, valueEnd), attrs.get('string'), schemas, param);
    setKey(value, param, read.value);
    repaired ||= read.repaired;
    pos = v.closed && v.bodyEnd < bodyEnd ? valueEnd + close.length : valueEnd;
  }
  return { value, repaired };
}

/** Just past a CDATA section that opens the value at `at` (after space), or `at` when there is none. */
function cdataEnd(r: InvokeReading, at: number, bodyEnd: number): number {
  const i = skipSpace(r.text, at, bodyEnd);
  if (!r.text.startsWith(CDATA_OPEN, i)) return at;
  const close = r.search(CDATA_CLOSE, i + CDATA_OPEN.length);
  return close >= 0 && close < bodyEnd ? close + CDATA_CLOSE.length : at;
}

function parameterText(
  d: InvokeDialect,
  raw: string,
  stringAttr: string | undefined,
  schemas: ReturnType<typeof parameterSchemas>,
  param: string,
): TextValue {
  if (d.typedByAttribute && stringAttr === 'true') return textValue(raw, { type: 'string' });
  // a JSON value starts like one: anything else is not worth a repair
  if (d.typedByAttribute && stringAttr === 'false' && /^\s*[[{"\d.tfn-]/.test(raw)) {
    const parsed = parseJsonText(raw.trim());
    if (parsed.ok) return { value: parsed.value, repaired: parsed.repaired };
  }
  return elementValue(raw, schemas(param));
}

/** A JSON object as the whole body of an invoke. */
function jsonBody(raw: string): InvokeArgs {
  const parsed = parseJsonText(raw.trim());
  if (!parsed.ok) return { error: parsed.error };
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'the body is not a JSON object' };
  return { value: v as Record<string, unknown>, repaired: parsed.repaired };
}

/** The `>` that ends an open tag whose name ends at `from`, within MAX_TAG characters and before `limit`. */
export function openTagEnd(text: string, from: number, limit: number): { end: number; closed: boolean } {
  const to = Math.min(limit, from + MAX_TAG);
  const gt = text.slice(from, to).indexOf('>');
  if (gt >= 0) return { end: from + gt, closed: true };
  return { end: to, closed: false };
}

/** `name="v"` / `name='v'` attributes of an open tag (its text after the tag name, at most MAX_TAG characters). */
export function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const key = m[1] as string;
    if (!out.has(key)) out.set(key, m[2] ?? m[3] ?? '');
  }
  return out;
}
