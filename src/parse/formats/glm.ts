import { setKey } from '../../util/set-key.js';
import {
  atReadLimit,
  emptyFound,
  type FinderContext,
  type Found,
  type FoundCall,
  isIntroducedAsExample,
} from '../found-call.js';
import { callsInBody } from '../json-body.js';
import { skipSpace } from '../json-scan.js';
import { TagBodies } from '../tag-bodies.js';
import { parameterSchemas, parameterValue, typedValue } from '../text-values.js';
import { offeredNames } from './tool-named-xml.js';

/**
 * How one family spells the `<arg_key>` grammar: a prefix inside every tag (`` or K2 Horizon's `ifm|`), a suffix
 * (Hunyuan's shipping tokenizer writes `<tool_call:opensource>`).
 */
interface GlmDialect {
  prefix: string;
  suffix: string;
  /** For diagnostics. */
  label: string;
  /** The body may be a JSON call object or list instead of a name and pairs (K2 Horizon). */
  jsonBody: boolean;
}

const DIALECTS: readonly GlmDialect[] = [
  { prefix: '', suffix: '', label: 'GLM <tool_call>', jsonBody: false },
  { prefix: 'ifm|', suffix: '', label: 'K2 Horizon <ifm|tool_call>', jsonBody: true },
  { prefix: '', suffix: ':opensource', label: 'Hunyuan <tool_call:opensource>', jsonBody: false },
];
/** A tool name as MCP servers and renderers spell them (dots, dashes and colons included). */
const NAME = /^[\p{L}_][\p{L}\p{N}_.:-]*$/u;
/** A name or key is looked for within this many characters of where it starts (keeps the scan linear). */
const MAX_NAME = 200;
/** More arguments than this in one call is garbage, not a call. */
const MAX_ARGUMENTS = 200;

/** A dialect's tags. */
class Tags {
  readonly open: string;
  /** As for Hermes calls, `</tool_call` cut short (no `>`) still closes the call, flagged truncated. */
  readonly close: string;
  readonly keyOpen: string;
  readonly keyClose: string;
  readonly valueOpen: string;
  readonly valueClose: string;
  readonly typeOpen: string;
  readonly typeClose: string;
  /** Hunyuan writes this token between the name and the arguments. */
  readonly sep: string;
  constructor(p: string, x: string) {
    this.open = `<${p}tool_call${x}>`;
    this.close = `</${p}tool_call${x}`;
    this.keyOpen = `<${p}arg_key${x}>`;
    this.keyClose = `</${p}arg_key${x}>`;
    this.valueOpen = `<${p}arg_value${x}>`;
    this.valueClose = `</${p}arg_value${x}>`;
    this.typeOpen = `<${p}arg_type${x}>`;
    this.typeClose = `</${p}arg_type${x}>`;
    this.sep = `<${p}tool_sep${x}>`;
  }
}

/**
 * Calls in the `<arg_key>` grammar: `<tool_call>NAME` then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs, then
 * `</tool_call>`. GLM-4.5 / 4.6 put each pair on its own line, 4.7 writes them without line breaks; Ling 3, Spark and
 * Poolside write the same; Hunyuan (HY3) puts `<tool_sep>` after the name (and wraps calls in `<tool_calls>`); K2 Horizon
 * spells every tag with an `ifm|` prefix (`<ifm|tool_call>`, `<ifm|arg_key>`), may state a value's type in
 * `<ifm|arg_type>integer</ifm|arg_type>` before it, and may write a JSON call object as the body instead. Values are text
 * as the template writes them (strings raw, everything else JSON): a stated type converts as it says (typedValue),
 * otherwise the tool's schema converts (textValue).
 *
 * GLM shares the `<tool_call>` tag with the Hermes JSON protocol, which runs after this finder and must keep every tag
 * that is not GLM's. So a tag is claimed only when its body starts with a tool name followed by `<arg_key>` (or by
 * `<tool_sep>`). A call with no arguments is, by the templates, the name alone (`<tool_call>NAME</tool_call>`): that
 * body is claimed only when the name is one of the offered tools (exact, server-qualified or provider-safe, as
 * resolveToolName decides) and the tag is closed; without the offered tools it is left to the `<tool_call>` reader,
 * which reports it as a `wrong-shape` attempt, so no-call still counts it.
 *
 * A value ends at its `</arg_value>`, so a value that holds `<tool_call>` text (a file about tool calls) stays whole;
 * a value whose close is missing runs to the tag's end. A missing `</tool_call>` (the reply cut off, or the next
 * `<tool_call>` began) flags the call truncated. Linear: indexOf and TagBodies only.
 */
export function findGlmCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  for (const d of DIALECTS) {
    const tags = new Tags(d.prefix, d.suffix);
    if (!text.includes(tags.open)) continue;
    if (ctx.tools.length === 0 && !text.includes(tags.keyOpen) && !text.includes(tags.sep) && !d.jsonBody) continue;
    findDialect(text, ctx, d, tags, found);
  }
  return found;
}

function findDialect(text: string, ctx: FinderContext, d: GlmDialect, t: Tags, found: Found): void {
  const bodies = new TagBodies(text, t.open, t.close);
  const values = new TagBodies(text, t.valueOpen, t.valueClose);
  const offered = offeredNames(ctx.tools);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = text.indexOf(t.open, from);
    if (start < 0) break;
    const bodyStart = start + t.open.length;
    from = bodyStart;
    const first = skipSpace(text, bodyStart, bodyStart + MAX_NAME);
    if (d.jsonBody && (text[first] === '{' || text[first] === '[')) {
      if (atReadLimit(found, d.label, start, text.length, ++candidates)) break;
      from = Math.max(bodyStart, jsonBodyCall(text, ctx, d, t, bodies, start, found));
      continue;
    }
    const head = nameAt(text, bodyStart);
    if (!head) continue;
    const { bodyEnd, closed } = bodies.from(bodyStart);
    let argsAt = skipSpace(text, head.end, bodyEnd);
    const sep = text.startsWith(t.sep, argsAt);
    if (sep) argsAt = skipSpace(text, argsAt + t.sep.length, bodyEnd);
    const withArgs = argsAt < bodyEnd && text.startsWith(t.keyOpen, argsAt);
    const bare = !withArgs && argsAt === bodyEnd && ((closed && offered(head.name)) || sep);
    if (!withArgs && !bare) continue;
    if (atReadLimit(found, d.label, start, text.length, ++candidates)) break;
    const args = readArguments(text, ctx, t, values, head.name, argsAt, bodyEnd);
    // the call ends at the first close after its arguments (a value may hold `<tool_call>` text)
    const tail = args.end > bodyEnd ? bodies.from(args.end) : { bodyEnd, closed };
    const full = tail.closed && text[tail.bodyEnd + t.close.length] === '>';
    const end = tail.closed ? tail.bodyEnd + t.close.length + (full ? 1 : 0) : tail.bodyEnd;
    const span: [number, number] = [start, end];
    found.spans.push(span);
    from = end;
    if (isIntroducedAsExample(text, start)) {
      found.diagnostics.push({ code: 'quoted-example', message: `a ${d.label} shown as an example`, span });
      continue;
    }
    if ('error' in args) {
      found.diagnostics.push({
        code: 'unparseable-arguments',
        message: `arguments of ${d.label} call ${head.name} do not parse: ${args.error}`,
        span,
      });
      continue;
    }
    const call: FoundCall = {
      name: head.name,
      args: args.value,
      rawArgs: ctx.source.slice(argsAt, tail.bodyEnd).trim(),
      shape: 'glm',
      repaired: args.repaired,
      truncated: !full,
      doubleEncoded: false,
      span,
    };
    found.calls.push(call);
  }
}

/**
 * A JSON call object (or list) as the tag's body, `<ifm|tool_call>{"name": …, "arguments": …}</ifm|tool_call>`: its
 * calls (callsInBody, shape `glm`) over the tag's region, claimed. Returns where the region ends.
 */
function jsonBodyCall(
  text: string,
  ctx: FinderContext,
  d: GlmDialect,
  t: Tags,
  bodies: TagBodies,
  start: number,
  found: Found,
): number {
  const bodyStart = start + t.open.length;
  const { bodyEnd, closed } = bodies.from(bodyStart);
  const full = closed && text[bodyEnd + t.close.length] === '>';
  const end = closed ? bodyEnd + t.close.length + (full ? 1 : 0) : bodyEnd;
  const span: [number, number] = [start, end];
  found.spans.push(span);
  if (isIntroducedAsExample(text, start)) {
    found.diagnostics.push({ code: 'quoted-example', message: `a ${d.label} shown as an example`, span });
    return end;
  }
  const body = callsInBody(ctx.source.slice(bodyStart, bodyEnd), bodyStart, {
    attempt: true,
    truncated: !full,
    requireArgs: false,
  });
  for (const c of body.calls) {
    c.shape = 'glm';
    c.span = span;
    found.calls.push(c);
  }
  for (const diag of body.diagnostics) found.diagnostics.push({ ...diag, span });
  return end;
}

/** The tool name a body starts with: up to the first `<` or line break, within MAX_NAME characters. */
function nameAt(text: string, bodyStart: number): { name: string; end: number } | undefined {
  const i = skipSpace(text, bodyStart, bodyStart + MAX_NAME);
  const window = text.slice(i, i + MAX_NAME);
  const stop = window.search(/[<\n]/);
  if (stop < 0 && i + window.length < text.length) return undefined;
  const end = stop < 0 ? i + window.length : i + stop;
  const name = text.slice(i, end).trim();
  return NAME.test(name) ? { name, end } : undefined;
}

/**
 * The key/value pairs from `from`; where they end (`end`). A closed value ends at its `</arg_value>`, even past
 * `bodyEnd` (the value holds `<tool_call>` text); an unclosed one runs to `bodyEnd` (the next `<tool_call>` or the end).
 * A `<arg_type>` between a key and its value says how the value reads (typedValue).
 */
function readArguments(
  text: string,
  ctx: FinderContext,
  t: Tags,
  values: TagBodies,
  tool: string,
  from: number,
  bodyEnd: number,
): ({ value: Record<string, unknown>; repaired: boolean } | { error: string }) & { end: number } {
  const schemas = parameterSchemas(ctx.tools, tool);
  const value: Record<string, unknown> = {};
  let repaired = false;
  let count = 0;
  let pos = from;
  for (;;) {
    const at = skipSpace(text, pos);
    if (!text.startsWith(t.keyOpen, at)) break;
    if (++count > MAX_ARGUMENTS) return { error: `more than ${MAX_ARGUMENTS} arguments`, end: pos };
    const keyStart = at + t.keyOpen.length;
    const keyEnd = text.slice(keyStart, keyStart + MAX_NAME).indexOf(t.keyClose);
    // a key cut off by the end of the reply: the arguments written before it stand
    if (keyEnd < 0) return { value, repaired, end: Math.max(pos, Math.min(text.length, bodyEnd)) };
    const key = ctx.source.slice(keyStart, keyStart + keyEnd).trim();
    let valueAt = skipSpace(text, keyStart + keyEnd + t.keyClose.length);
    let type: string | undefined;
    if (text.startsWith(t.typeOpen, valueAt)) {
      const typeStart = valueAt + t.typeOpen.length;
      const typeEnd = text.slice(typeStart, typeStart + MAX_NAME).indexOf(t.typeClose);
      if (typeEnd < 0) return { value, repaired, end: Math.max(pos, Math.min(text.length, bodyEnd)) };
      type = ctx.source.slice(typeStart, typeStart + typeEnd).trim();
      valueAt = skipSpace(text, typeStart + typeEnd + t.typeClose.length);
    }
    if (valueAt >= text.length) return { value, repaired, end: valueAt };
    if (!text.startsWith(t.valueOpen, valueAt)) {
      return { error: `${t.keyOpen}${key}${t.keyClose} has no ${t.valueOpen} after it`, end: valueAt };
    }
    if (key === '') return { error: `an ${t.keyOpen} is empty`, end: valueAt };
    const valueStart = valueAt + t.valueOpen.length;
    const v = values.from(valueStart);
    // past the tag's end, only a close the call goes on after (another key, or the tag's close) ends the value
    const closed = v.closed && (v.bodyEnd < bodyEnd || continuesCall(text, t, v.bodyEnd + t.valueClose.length));
    const valueEnd = closed ? v.bodyEnd : Math.max(valueStart, Math.min(v.bodyEnd, bodyEnd));
    const raw = ctx.source.slice(valueStart, valueEnd);
    const read = type !== undefined ? typedValue(raw, type) : parameterValue(raw, schemas, key);
    setKey(value, key, read.value);
    repaired ||= read.repaired;
    if (!closed) return { value, repaired, end: valueEnd };
    pos = valueEnd + t.valueClose.length;
  }
  return { value, repaired, end: pos };
}

function continuesCall(text: string, t: Tags, at: number): boolean {
  const next = skipSpace(text, at, at + MAX_NAME);
  return text.startsWith(t.keyOpen, next) || text.startsWith(t.close, next);
}
