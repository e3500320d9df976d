import { setKey } from '../../util/set-key.js';
import { atReadLimit, emptyFound, type FinderContext, type Found, type FoundCall } from '../found-call.js';
import { parameterSchemas, parameterValue, type TextValue, typedValue } from '../text-values.js';
import { quotedExample, TOOL_NAME, TokenCursor } from './token-scan.js';

const SEP = '<|sep|>';
const CALL_OPEN = '<|open|>call';
const CALL_CLOSE = '<|close|>call<|sep|>';
const ARG_OPEN = '<|open|>argument';
const ARG_CLOSE = '<|close|>argument<|sep|>';
/** The section tokens around the calls, claimed with them. */
const SECTION_TOKENS = ['<|open|>tools<|sep|>', '<|close|>tools<|sep|>'];
/** An open token's attributes run at most this far before its `<|sep|>` (keeps the scan linear). */
const MAX_ATTRS = 300;
/** More arguments than this in one call is garbage, not a call. */
const MAX_ARGUMENTS = 200;
/** What stands between an open token's keyword and its `<|sep|>`: attributes only. */
const ATTRIBUTE_LIST = /^(?:\s+\w+="[^"]*")*\s*$/;

/**
 * Kimi K3's XTML calls, written in a `tools` channel:
 * `<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Oslo
 * <|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`. Attribute values undo the template's `&quot;` and
 * `&amp;`. An argument's `type` says how its text reads (typedValue: `string` keeps it raw, `integer` is a number,
 * `object` JSON, …); an argument without one is converted by the offered tool's schema. A value ends at the first
 * `<|close|>argument<|sep|>` (the format has no escape for it); an unclosed one runs to the call's end. A call whose close
 * token is missing (the reply cut off, or the next call began) is `truncated`; one without a `tool` attribute is a
 * `wrong-shape` attempt. `<|open|>call` not followed by attributes and `<|sep|>` is prose that mentions it. Reasoning in
 * the `think` channel is masked before (reasoning channels). Linear: cursors walk the tokens.
 */
export function findKimiXtmlCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(CALL_OPEN)) return found;
  const cursor = new TokenCursor(text, [CALL_OPEN, CALL_CLOSE, ARG_OPEN, ARG_CLOSE, SEP]);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = cursor.next(0, from);
    if (start < 0) break;
    from = start + CALL_OPEN.length;
    const head = attributesAt(text, cursor, from);
    if (!head) continue;
    if (atReadLimit(found, 'Kimi K3 call', start, text.length, ++candidates)) break;
    const bodyStart = head.end;
    const args = readArguments(text, ctx, cursor, head.attrs.get('tool') ?? '', bodyStart);
    // the close token belongs to this call when no other call opens before it
    const closeAt = cursor.next(1, args.end);
    const nextOpen = cursor.next(0, args.end);
    const closed = closeAt >= 0 && (nextOpen < 0 || closeAt < nextOpen);
    const end = closed ? closeAt + CALL_CLOSE.length : args.end;
    const span: [number, number] = [start, end];
    from = end;
    if (quotedExample(found, text, span, 'a Kimi K3 call')) continue;
    found.spans.push(span);
    const name = (head.attrs.get('tool') ?? '').trim();
    if (!TOOL_NAME.test(name)) {
      found.diagnostics.push({
        code: 'wrong-shape',
        message: 'Kimi K3 call without a tool name in its tool attribute',
        span,
      });
      continue;
    }
    const call: FoundCall = {
      name,
      args: args.value,
      rawArgs: ctx.source.slice(bodyStart, closed ? closeAt : end).trim(),
      shape: 'kimi',
      repaired: args.repaired,
      truncated: !closed,
      doubleEncoded: false,
      span,
    };
    const index = head.attrs.get('index');
    if (index !== undefined) call.id = `${name}:${index}`;
    found.calls.push(call);
  }
  if (found.calls.length > 0) claimTokens(text, found);
  return found;
}

/**
 * The attributes after an open token's keyword (`from` is just past it) and just past its `<|sep|>`, or undefined
 * when what follows is not ` key="value" …<|sep|>` within MAX_ATTRS characters.
 */
function attributesAt(
  text: string,
  cursor: TokenCursor,
  from: number,
): { attrs: Map<string, string>; end: number } | undefined {
  const c = text[from];
  if (c !== ' ' && c !== '\t' && c !== '\n') return undefined;
  const sep = cursor.next(4, from);
  if (sep < 0 || sep - from > MAX_ATTRS) return undefined;
  const written = text.slice(from, sep);
  // only `key="value"` pairs: prose that happens to reach a `<|sep|>` is not a tag
  if (!ATTRIBUTE_LIST.test(written)) return undefined;
  const attrs = new Map<string, string>();
  for (const m of written.matchAll(/(\w+)="([^"]*)"/g)) {
    const key = m[1] as string;
    if (!attrs.has(key)) attrs.set(key, unescapeAttribute(m[2] as string));
  }
  return { attrs, end: sep + SEP.length };
}

function unescapeAttribute(value: string): string {
  return value.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

/**
 * The arguments from `from`: each value runs to its close token when that comes before the call's close (so a value
 * may hold `<|open|>call` text), else to the call's close, the next call or the end of the reply, where reading stops.
 * Returns where the arguments end.
 */
function readArguments(
  text: string,
  ctx: FinderContext,
  cursor: TokenCursor,
  tool: string,
  from: number,
): { value: Record<string, unknown>; repaired: boolean; end: number } {
  const schemas = parameterSchemas(ctx.tools, tool.trim());
  const value: Record<string, unknown> = {};
  let repaired = false;
  let end = from;
  for (let count = 0; count < MAX_ARGUMENTS; count++) {
    const at = cursor.next(2, end);
    const callClose = cursor.next(1, end);
    const callOpen = cursor.next(0, end);
    if (at < 0 || (callClose >= 0 && callClose < at) || (callOpen >= 0 && callOpen < at)) break;
    const head = attributesAt(text, cursor, at + ARG_OPEN.length);
    if (!head) {
      end = at + ARG_OPEN.length;
      continue;
    }
    const close = cursor.next(3, head.end);
    const stop = cursor.next(1, head.end);
    const closed = close >= 0 && (stop < 0 || close < stop);
    let valueEnd = close;
    if (!closed) {
      const next = cursor.next(0, head.end);
      valueEnd = Math.min(stop < 0 ? text.length : stop, next < 0 ? text.length : next);
    }
    const key = head.attrs.get('key') ?? '';
    const type = head.attrs.get('type');
    const raw = ctx.source.slice(head.end, valueEnd);
    const read: TextValue = type !== undefined ? typedValue(raw, type) : parameterValue(raw, schemas, key);
    if (key !== '') setKey(value, key, read.value);
    repaired ||= read.repaired;
    end = closed ? close + ARG_CLOSE.length : valueEnd;
    if (!closed) break;
  }
  return { value, repaired, end };
}

/** The tools section's open and close tokens are part of the calls' markup: claimed, so no later finder reads them. */
function claimTokens(text: string, found: Found): void {
  for (const token of SECTION_TOKENS) {
    for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length)) {
      found.spans.push([at, at + token.length]);
    }
  }
}
