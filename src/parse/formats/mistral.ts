import { atReadLimit, emptyFound, type FinderContext, type Found } from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import {
  bodyCalls,
  escapedJson,
  finishRegion,
  JsonReach,
  pushArgsCall,
  quotedExample,
  readJsonArgs,
  TOOL_NAME,
} from './token-scan.js';

const CALLS = '[TOOL_CALLS]';
const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';
/** How far after `[TOOL_CALLS]` a tool name (and after `[CALL_ID]` an id) may run before its `[ARGS]`. */
const HEAD = 200;

/**
 * Mistral's `[TOOL_CALLS]` calls, in both of its tokenizers' forms:
 * - before v11, `[TOOL_CALLS]` followed by a JSON list of `{"name", "arguments", "id"?}` (or one such object);
 * - from v11, `[TOOL_CALLS]name[ARGS]{json}` once per call (`[CALL_ID]id` may stand between the name and `[ARGS]`;
 *   a tokenizer that drops `[ARGS]` leaves `name{json}`, which is read too).
 * The `id` field or `[CALL_ID]` becomes the call id. The format has no closing token (the call ends the turn), so a
 * call is `truncated` only when its JSON was cut off. `[TOOL_CALLS]` followed by neither a JSON value nor a name and
 * its arguments is prose that mentions the token: no call, no attempt. A `[TOOL_CALLS]` inside a string value stays
 * in it (JsonReach). Linear: one indexOf walk over the tokens.
 */
export function findMistralCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(CALLS)) return found;
  const reach = new JsonReach(ctx.source);
  let from = 0;
  let candidates = 0;
  let start = text.indexOf(CALLS);
  while (start >= 0) {
    if (atReadLimit(found, CALLS, start, text.length, ++candidates)) break;
    const afterToken = start + CALLS.length;
    const next = text.indexOf(CALLS, afterToken);
    const bound = next < 0 ? text.length : next;
    const i = skipSpace(text, afterToken, bound);
    const ch = i < bound && !escapedJson(ctx.source, i) ? text[i] : '';
    from =
      ch === '[' || ch === '{'
        ? callList(found, text, ctx, start, i, reach.limit(i, bound))
        : namedCall(found, text, ctx, reach, start, i, bound);
    start = next >= from ? next : text.indexOf(CALLS, Math.max(from, afterToken));
  }
  return found;
}

/** `[TOOL_CALLS][{…}, …]`: the JSON list (or object) of call objects. Returns where the region ends. */
function callList(found: Found, text: string, ctx: FinderContext, start: number, i: number, bound: number): number {
  const body = bodyCalls(ctx, i, bound);
  const span: [number, number] = [start, body.end];
  if (quotedExample(found, text, span, 'a [TOOL_CALLS] call list')) return body.end;
  finishRegion(found, body.found, 'mistral', span, false);
  return body.end;
}

/** `[TOOL_CALLS]name[CALL_ID]id[ARGS]{…}`. Returns where the region ends (`i` when it is not a call). */
function namedCall(
  found: Found,
  text: string,
  ctx: FinderContext,
  reach: JsonReach,
  start: number,
  i: number,
  bound: number,
): number {
  const headEnd = Math.min(bound, i + HEAD);
  const nameEnd = firstOf(text, i, headEnd, [ARGS, CALL_ID, '{']);
  if (nameEnd < 0) return cutAfterName(found, text, start, i, headEnd);
  const name = text.slice(i, nameEnd);
  if (!TOOL_NAME.test(name)) return i;
  let at = nameEnd;
  let id: string | undefined;
  if (text.startsWith(CALL_ID, at)) {
    const idStart = at + CALL_ID.length;
    const idEnd = firstOf(text, idStart, Math.min(bound, idStart + HEAD), [ARGS, '{']);
    if (idEnd < 0) return i;
    id = text.slice(idStart, idEnd).trim();
    at = idEnd;
  }
  const argsStart = text.startsWith(ARGS, at) ? at + ARGS.length : at;
  if (escapedJson(ctx.source, argsStart)) return i;
  const args = readJsonArgs(ctx.source, argsStart, reach.limit(argsStart, bound));
  const end = Math.max(args.end, argsStart);
  const span: [number, number] = [start, end];
  if (quotedExample(found, text, span, 'a [TOOL_CALLS] call')) return end;
  // `[ARGS]` with nothing after it before the next call or the end: the reply was cut before the arguments
  const cut = args.ok && args.raw === '';
  pushArgsCall(found, 'mistral', name, args, span, { truncated: cut, ...(id ? { id } : {}) });
  return end;
}

/** `[TOOL_CALLS]name` and the end of the reply: cut before its arguments, a truncated call with none. */
function cutAfterName(found: Found, text: string, start: number, i: number, headEnd: number): number {
  const name = text.slice(i, headEnd).trimEnd();
  if (headEnd < text.length || !TOOL_NAME.test(name)) return i;
  const span: [number, number] = [start, text.length];
  if (quotedExample(found, text, span, 'a [TOOL_CALLS] call')) return text.length;
  found.spans.push(span);
  found.calls.push({
    name,
    args: {},
    rawArgs: '',
    shape: 'mistral',
    repaired: false,
    truncated: true,
    doubleEncoded: false,
    span,
  });
  return text.length;
}

/** The first position in `[from, to)` where one of `needles` starts (-1: none). */
function firstOf(text: string, from: number, to: number, needles: readonly string[]): number {
  const head = text.slice(from, to);
  let best = -1;
  for (const n of needles) {
    const at = head.indexOf(n);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best < 0 ? -1 : from + best;
}
