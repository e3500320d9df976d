import {
  atReadLimit,
  emptyFound,
  type FinderContext,
  type Found,
  MAX_FINDINGS_PER_REPLY,
  mergeFound,
} from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import { bodyCalls, escapedJson, finishRegion, JsonReach, quotedExample, TokenCursor } from './token-scan.js';

const PYTHON_TAG = '<|python_tag|>';
const PYTHON_START = '<|python_start|>';
const OPENS = [PYTHON_TAG, PYTHON_START];
/** What ends a `<|python_tag|>` call: Llama 3's end-of-message / end-of-turn tokens (and Llama 4's). */
const TAG_ENDS = ['<|eom_id|>', '<|eot_id|>', '<|eom|>', '<|eot|>'];
const PYTHON_END = '<|python_end|>';
/** `name(` or `module.name(`: python call syntax (a built-in tool's `brave_search.call(query="…")`). */
const PYTHON_CALL_START = /^[\p{L}_][\p{L}\p{N}_.]*\s*\(/u;
/** Built-in tools are called as `tool.call(…)`: the tool is `tool`. */
const BUILTIN_SUFFIX = '.call';
const POSITIONAL = /^_\d+$/;

/**
 * Llama's call tokens:
 * - Llama 3.x `<|python_tag|>` followed by a JSON call `{"name", "parameters"}` (several separated by `;`), a JSON
 *   list, or a built-in tool's python call (`brave_search.call(query="…")`, reported as `brave_search`), ending at
 *   `<|eom_id|>` / `<|eot_id|>`, the next tag, or the end of the reply;
 * - Llama 4 `<|python_start|>…<|python_end|>` holding a python call list (or JSON).
 * The end tokens are stop tokens a server may strip, so a call without one is `truncated` only when its JSON or call
 * list was cut off. What follows the token that is neither JSON nor a call (prose that mentions the token, or raw
 * code for the code interpreter) is not read: no call, no attempt. A call with positional arguments (`print(x)`) is
 * code, not a tool call. A token inside a JSON string value stays in it (JsonReach). Linear: cursors walk the tokens.
 */
export function findLlamaCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(PYTHON_TAG) && !text.includes(PYTHON_START)) return found;
  const opens = new TokenCursor(text, OPENS);
  const ends = [new TokenCursor(text, TAG_ENDS), new TokenCursor(text, [PYTHON_END])];
  const reach = new JsonReach(ctx.source);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const open = opens.first(from);
    if (!open || atReadLimit(found, 'llama', open.at, text.length, ++candidates)) break;
    const start = open.at;
    const bodyStart = start + (OPENS[open.token] ?? '').length;
    from = bodyStart;
    const closers = ends[open.token] as TokenCursor;
    const closeTokens = open.token === 0 ? TAG_ENDS : [PYTHON_END];
    const bound = Math.min(opens.first(bodyStart)?.at ?? text.length, closers.first(bodyStart)?.at ?? text.length);
    const stop = (at: number) => atReadLimit(found, 'llama', at, text.length, ++candidates);
    const body = readBody(text, ctx, reach, bodyStart, bound, stop);
    if (!body) continue;
    // the end token belongs to this call when no other call opens before it
    const close = closers.first(body.end);
    const nextOpen = opens.first(body.end)?.at ?? text.length;
    const closed = close !== null && close.at < nextOpen;
    const end = closed && close ? close.at + (closeTokens[close.token] ?? '').length : body.end;
    const span: [number, number] = [start, end];
    from = end;
    if (quotedExample(found, text, span, `a ${OPENS[open.token]} call`)) continue;
    finishRegion(found, body.found, 'llama', span, false);
    // a region of more calls than the parser reads: stop here and claim the rest, as atReadLimit does
    if (found.calls.length >= MAX_FINDINGS_PER_REPLY && atReadLimit(found, 'llama', end, text.length, 1, 0)) break;
  }
  return found;
}

/** The calls after the token, up to `bound`, or null when what follows is not a call. */
function readBody(
  text: string,
  ctx: FinderContext,
  reach: JsonReach,
  bodyStart: number,
  bound: number,
  stop: (at: number) => boolean,
): { found: Found; end: number } | null {
  let i = skipSpace(text, bodyStart, bound);
  const ch = i < bound && !escapedJson(ctx.source, i) ? text[i] : '';
  if (ch === '{') {
    // `{"name": …}; {"name": …}`: several JSON calls separated by semicolons, each a candidate of the read limit
    const all = emptyFound();
    let end = i;
    for (;;) {
      const one = bodyCalls(ctx, i, reach.limit(i, bound));
      mergeFound(all, one.found);
      end = one.end;
      const sep = skipSpace(text, end, bound);
      if (text[sep] !== ';') break;
      i = skipSpace(text, sep + 1, bound);
      if (i >= bound || text[i] !== '{' || all.calls.length >= MAX_FINDINGS_PER_REPLY || stop(i)) break;
    }
    return { found: all, end };
  }
  if (ch === '[') return bodyCalls(ctx, i, bound, { atEnd: bound === text.length });
  if (!PYTHON_CALL_START.test(text.slice(i, i + 200))) return null;
  const body = bodyCalls(ctx, i, bound, { atEnd: bound === text.length });
  if (body.found.calls.length === 0) return null;
  // a python call with positional arguments is code for the interpreter, not a tool call
  if (body.found.calls.some((c) => Object.keys(c.args as object).some((k) => POSITIONAL.test(k)))) return null;
  for (const c of body.found.calls) {
    if (c.name.endsWith(BUILTIN_SUFFIX)) c.name = c.name.slice(0, -BUILTIN_SUFFIX.length);
  }
  return body;
}
