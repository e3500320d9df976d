import type { ParseTool } from '../../contracts/parse.js';
import { resolveToolName } from '../../util/resolve-tool-name.js';
import { setKey } from '../../util/set-key.js';
import { openTagAt } from '../child-elements.js';
import {
  atReadLimit,
  emptyFound,
  type FinderContext,
  type Found,
  type FoundCall,
  isIntroducedAsExample,
} from '../found-call.js';
import { parseJsonText } from '../json-args.js';
import { skipSpace } from '../json-scan.js';
import { TagBodies } from '../tag-bodies.js';
import { parameterSchemas, parameterValue } from '../text-values.js';
import { TokenCursor } from './token-scan.js';

/** More parameters than this in one call is garbage, not a call. */
const MAX_PARAMETERS = 200;

/**
 * Tool-named XML as Cline and Roo Code ask for it: the tool's name is the element, each parameter a child element,
 * `<read_file>\n<path>src/a.ts</path>\n</read_file>`. Recognised only for the tools the request offered (ctx.tools),
 * by exact name or by the tool resolveToolName finds for it (server-qualified, provider-safe), so ordinary markup in a
 * reply is never read as a call; without offered tools this finder reads nothing.
 *
 * A tag is a call when its body (after space) opens a parameter element, closes at once (a tool without
 * parameters), or holds a JSON object of arguments (some models write that). A tool's tag followed by anything else
 * (`<read_file>` in a sentence, `` `<read_file>` `` in backticks) is a mention, not a call. A parameter's value is
 * everything up to its close tag, tags included (Cline's `<content>` holds code full of `<`): the close tag counts only
 * where the next parameter or the tool's close follows it. Values are converted by the tool's schema (textValue).
 * A reply cut off before the tool's close tag (or the next call of the same tool beginning first) is a truncated call,
 * which needs at least one parameter element opened. Linear: TagBodies and TokenCursor only.
 */
export function findToolNamedXmlCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (ctx.tools.length === 0 || !text.includes('<')) return found;
  const offered = offeredNames(ctx.tools);
  const bodies = new Map<string, TagBodies>();
  const closeTags = new TokenCursor(text, ['</']);
  const nextCloseTag = (at: number) => closeTags.next(0, at);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = text.indexOf('<', from);
    if (start < 0) break;
    from = start + 1;
    const tag = openTagAt(text, start);
    if (!tag || !offered(tag.name)) continue;
    const bodyStart = tag.end;
    const first = skipSpace(text, bodyStart);
    const close = `</${tag.name}>`;
    const shape = text.startsWith(close, first)
      ? 'empty'
      : openTagAt(text, first)
        ? 'parameters'
        : text[first] === '{'
          ? 'json'
          : undefined;
    if (!shape) continue;
    if (atReadLimit(found, 'tool-named XML', start, text.length, ++candidates)) break;
    let tb = bodies.get(tag.name);
    if (!tb) {
      tb = new TagBodies(text, `<${tag.name}>`, close);
      bodies.set(tag.name, tb);
    }
    const { bodyEnd, closed } = tb.from(bodyStart);
    const end = closed ? bodyEnd + close.length : bodyEnd;
    const span: [number, number] = [start, end];
    found.spans.push(span);
    from = end;
    if (isIntroducedAsExample(text, start)) {
      found.diagnostics.push({ code: 'quoted-example', message: `a <${tag.name}> call shown as an example`, span });
      continue;
    }
    const args =
      shape === 'json'
        ? jsonArgs(ctx.source.slice(first, bodyEnd))
        : parameters(text, ctx, tag.name, first, bodyEnd, nextCloseTag);
    if ('error' in args) {
      found.diagnostics.push({
        code: 'unparseable-arguments',
        message: `arguments of <${tag.name}> do not parse: ${args.error}`,
        span,
      });
      continue;
    }
    const call: FoundCall = {
      name: tag.name,
      args: args.value,
      rawArgs: ctx.source.slice(bodyStart, bodyEnd).trim(),
      shape: 'tool-named-xml',
      repaired: args.repaired,
      truncated: !closed,
      doubleEncoded: false,
      span,
    };
    found.calls.push(call);
  }
  return found;
}

/** Names resolved per reply beyond the offered names themselves: a reply of thousands of distinct tags is not calls. */
const MAX_RESOLVED = 2_000;

/**
 * Whether a called name stands for one offered tool: its exact name, or the tool resolveToolName finds for it
 * (server-qualified, provider-safe). Cached per name; past MAX_RESOLVED distinct names only exact names count.
 */
export function offeredNames(tools: readonly ParseTool[]): (name: string) => boolean {
  const exact = new Set(tools.map((t) => t.name));
  const seen = new Map<string, boolean>();
  return (name) => {
    if (exact.has(name)) return true;
    let hit = seen.get(name);
    if (hit === undefined) {
      if (tools.length === 0 || seen.size >= MAX_RESOLVED) return false;
      const how = resolveToolName(name, tools).how;
      hit = how === 'qualified' || how === 'provider-safe';
      seen.set(name, hit);
    }
    return hit;
  };
}

type Args = { value: Record<string, unknown>; repaired: boolean } | { error: string };

/** Parameter elements from `from` to `bodyEnd`; text that is not a parameter element ends them. */
function parameters(
  text: string,
  ctx: FinderContext,
  tool: string,
  from: number,
  bodyEnd: number,
  nextCloseTag: (from: number) => number,
): Args {
  const schemas = parameterSchemas(ctx.tools, tool);
  const value: Record<string, unknown> = {};
  let repaired = false;
  let count = 0;
  let pos = from;
  while (pos < bodyEnd) {
    const param = openTagAt(text, pos);
    if (!param || param.end > bodyEnd) break;
    if (++count > MAX_PARAMETERS) return { error: `more than ${MAX_PARAMETERS} parameters` };
    const close = valueClose(text, param.name, param.end, bodyEnd, nextCloseTag);
    const valueEnd = close ?? bodyEnd;
    const read = parameterValue(ctx.source.slice(param.end, valueEnd), schemas, param.name);
    setKey(value, param.name, read.value);
    repaired ||= read.repaired;
    if (close === undefined) break;
    pos = skipSpace(text, close + param.name.length + 3, bodyEnd);
  }
  return { value, repaired };
}

/**
 * Where a parameter's value ends: the first `</name>` followed (after space) by another element or the tool's end.
 * A `</name>` inside the value (the value holds markup that uses the same tag) is followed by text and is skipped;
 * when no close qualifies, the first one found ends the value; none at all: undefined (the value runs to the end).
 */
function valueClose(
  text: string,
  name: string,
  from: number,
  bodyEnd: number,
  nextCloseTag: (from: number) => number,
): number | undefined {
  const close = `</${name}>`;
  let first: number | undefined;
  for (let k = nextCloseTag(from); k >= 0 && k < bodyEnd; k = nextCloseTag(k + 2)) {
    if (!text.startsWith(close, k)) continue;
    first ??= k;
    const after = skipSpace(text, k + close.length, bodyEnd);
    if (after >= bodyEnd || openTagAt(text, after)) return k;
  }
  return first;
}

/** A JSON object of arguments as the tag's body (`<read_file>{"path": "a.ts"}</read_file>`). */
function jsonArgs(body: string): Args {
  const parsed = parseJsonText(body.trim());
  if (!parsed.ok) return { error: parsed.error };
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'the body is not a JSON object' };
  return { value: v as Record<string, unknown>, repaired: parsed.repaired };
}
