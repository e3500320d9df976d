import { setKey } from '../../util/set-key.js';
import {
  atReadLimit,
  emptyFound,
  type FinderContext,
  type Found,
  type FoundCall,
  isIntroducedAsExample,
} from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import { TagBodies } from '../tag-bodies.js';
import { parameterSchemas, parameterValue } from '../text-values.js';
import { offeredNames } from './tool-named-xml.js';

const OPEN = '<tool_call>';
/** As for Hermes calls, `</tool_call` cut short (no `>`) still closes the call, flagged truncated. */
const CLOSE = '</tool_call';
const KEY_OPEN = '<arg_key>';
const KEY_CLOSE = '</arg_key>';
const VALUE_OPEN = '<arg_value>';
const VALUE_CLOSE = '</arg_value>';
/** A tool name as MCP servers and renderers spell them (dots, dashes and colons included). */
const NAME = /^[\p{L}_][\p{L}\p{N}_.:-]*$/u;
/** A name or key is looked for within this many characters of where it starts (keeps the scan linear). */
const MAX_NAME = 200;
/** More arguments than this in one call is garbage, not a call. */
const MAX_ARGUMENTS = 200;

/**
 * GLM-4.5 / 4.6 / 4.7 calls: `<tool_call>NAME` then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs (4.5 and 4.6
 * put each on its own line, 4.7 writes them without line breaks), then `</tool_call>`. Values are text as the template
 * writes them (strings raw, everything else JSON), converted by the tool's schema (textValue).
 *
 * GLM shares the `<tool_call>` tag with the Hermes JSON protocol, which runs after this finder and must keep every tag
 * that is not GLM's. So a tag is claimed only when its body starts with a tool name followed by `<arg_key>`. A GLM
 * call with no arguments is, by the templates, the name alone (`<tool_call>NAME</tool_call>`): that body is claimed
 * only when the name is one of the offered tools (exact, server-qualified or provider-safe, as resolveToolName
 * decides) and the tag is closed; without the offered tools it is left to the `<tool_call>` reader, which reports it
 * as a `wrong-shape` attempt, so no-call still counts it.
 *
 * A value ends at its `</arg_value>`, so a value that holds `<tool_call>` text (a file about tool calls) stays whole;
 * a value whose close is missing runs to the tag's end. A missing `</tool_call>` (the reply cut off, or the next
 * `<tool_call>` began) flags the call truncated. Linear: indexOf and TagBodies only.
 */
export function findGlmCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(OPEN) || (ctx.tools.length === 0 && !text.includes(KEY_OPEN))) return found;
  const bodies = new TagBodies(text, OPEN, CLOSE);
  const values = new TagBodies(text, VALUE_OPEN, VALUE_CLOSE);
  const offered = offeredNames(ctx.tools);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = text.indexOf(OPEN, from);
    if (start < 0) break;
    const bodyStart = start + OPEN.length;
    from = bodyStart;
    const head = nameAt(text, bodyStart);
    if (!head) continue;
    const { bodyEnd, closed } = bodies.from(bodyStart);
    const argsAt = skipSpace(text, head.end, bodyEnd);
    const withArgs = argsAt < bodyEnd && text.startsWith(KEY_OPEN, argsAt);
    const bare = !withArgs && closed && argsAt === bodyEnd && offered(head.name);
    if (!withArgs && !bare) continue;
    if (atReadLimit(found, 'GLM <tool_call>', start, text.length, ++candidates)) break;
    const args = readArguments(text, ctx, values, head.name, argsAt, bodyEnd);
    // the call ends at the first close after its arguments (a value may hold `<tool_call>` text)
    const tail = args.end > bodyEnd ? bodies.from(args.end) : { bodyEnd, closed };
    const full = tail.closed && text[tail.bodyEnd + CLOSE.length] === '>';
    const end = tail.closed ? tail.bodyEnd + CLOSE.length + (full ? 1 : 0) : tail.bodyEnd;
    const span: [number, number] = [start, end];
    found.spans.push(span);
    from = end;
    if (isIntroducedAsExample(text, start)) {
      found.diagnostics.push({ code: 'quoted-example', message: 'a GLM <tool_call> shown as an example', span });
      continue;
    }
    if ('error' in args) {
      found.diagnostics.push({
        code: 'unparseable-arguments',
        message: `arguments of GLM call ${head.name} do not parse: ${args.error}`,
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
  return found;
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
 */
function readArguments(
  text: string,
  ctx: FinderContext,
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
    if (!text.startsWith(KEY_OPEN, at)) break;
    if (++count > MAX_ARGUMENTS) return { error: `more than ${MAX_ARGUMENTS} arguments`, end: pos };
    const keyStart = at + KEY_OPEN.length;
    const keyEnd = text.slice(keyStart, keyStart + MAX_NAME).indexOf(KEY_CLOSE);
    // a key cut off by the end of the reply: the arguments written before it stand
    if (keyEnd < 0) return { value, repaired, end: Math.max(pos, Math.min(text.length, bodyEnd)) };
    const key = ctx.source.slice(keyStart, keyStart + keyEnd).trim();
    const valueAt = skipSpace(text, keyStart + keyEnd + KEY_CLOSE.length);
    if (valueAt >= text.length) return { value, repaired, end: valueAt };
    if (!text.startsWith(VALUE_OPEN, valueAt)) {
      return { error: `<arg_key>${key}</arg_key> has no <arg_value> after it`, end: valueAt };
    }
    if (key === '') return { error: 'an <arg_key> is empty', end: valueAt };
    const valueStart = valueAt + VALUE_OPEN.length;
    const v = values.from(valueStart);
    // past the tag's end, only a close the call goes on after (another key, or the tag's close) ends the value
    const closed = v.closed && (v.bodyEnd < bodyEnd || continuesCall(text, v.bodyEnd + VALUE_CLOSE.length));
    const valueEnd = closed ? v.bodyEnd : Math.max(valueStart, Math.min(v.bodyEnd, bodyEnd));
    const read = parameterValue(ctx.source.slice(valueStart, valueEnd), schemas, key);
    setKey(value, key, read.value);
    repaired ||= read.repaired;
    if (!closed) return { value, repaired, end: valueEnd };
    pos = valueEnd + VALUE_CLOSE.length;
  }
  return { value, repaired, end: pos };
}

function continuesCall(text: string, at: number): boolean {
  const next = skipSpace(text, at, at + MAX_NAME);
  return text.startsWith(KEY_OPEN, next) || text.startsWith(CLOSE, next);
}
