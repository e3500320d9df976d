import { atReadLimit, emptyFound, type FinderContext, type Found, mergeFound } from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import {
  escapedJson,
  JsonReach,
  pushArgsCall,
  quotedExample,
  readJsonArgs,
  TOOL_NAME,
  TokenCursor,
} from './token-scan.js';

const RECIPIENT = '<|recipient|>';
const CONTENT = '<|content|>';
/** What ends a v2 message's content: its stop token (kept in the call's region), or the next message. */
const V2_ENDS = ['<|stop|>', '<|from|>', RECIPIENT];
const FROM_ASSISTANT = /<\|from\|>\s*assistant\s*$/;
const V3 = '>>>';
/** The recipient that means "to the user": its message is text, not a call. */
const ALL = 'all';
/** Functionary v3.2's code interpreter: `>>>python` followed by raw code. */
const PYTHON = 'python';
/** How far a recipient's name may run before its line break (v3) or `<|content|>` (v2). */
const MAX_NAME = 200;

/**
 * Functionary's call markup:
 * - v2: `<|from|>assistant\n<|recipient|>NAME\n<|content|>{json}` (the `<|from|>` line may be the prompt's), ending at
 *   `<|stop|>`, the next message or the end of the reply;
 * - v3: `>>>NAME\n{json}`, one message after another (`>>>a\n{…}>>>b\n{…}`); v3.2's `>>>python\n` is followed by
 *   raw code, read as a `python` call with `{"code": …}`.
 * The recipient `all` is text for the user, not a call. `>>>` is ordinary markdown (quotes, REPL prompts), so v3 is
 * read strictly: `>>>` at the start of a line (or right after the message before it), an identifier with nothing
 * between, a line break, then a JSON object. A message without a stop token is `truncated` only when its JSON was
 * cut off. v3.1's `<function=NAME>{…}</function>` is read as function-tags.
 */
export function findFunctionaryCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (text.includes(RECIPIENT)) mergeFound(found, findV2(text, ctx));
  if (text.includes(V3)) mergeFound(found, findV3(text, ctx));
  return found;
}

function findV2(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  const cursor = new TokenCursor(text, V2_ENDS);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const r = text.indexOf(RECIPIENT, from);
    if (r < 0 || atReadLimit(found, RECIPIENT, r, text.length, ++candidates)) break;
    const nameStart = r + RECIPIENT.length;
    from = nameStart;
    const c = text.slice(nameStart, nameStart + MAX_NAME).indexOf(CONTENT);
    if (c < 0) continue;
    const name = text.slice(nameStart, nameStart + c).trim();
    const contentStart = nameStart + c + CONTENT.length;
    if (name === ALL || !TOOL_NAME.test(name) || escapedJson(ctx.source, contentStart)) continue;
    const close = cursor.first(contentStart);
    const contentEnd = close ? close.at : text.length;
    // the stop token belongs to the message; the next message's tokens do not
    const end = close && close.token === 0 ? close.at + (V2_ENDS[0] ?? '').length : contentEnd;
    const before = text.slice(Math.max(0, r - 40), r);
    const fromLine = FROM_ASSISTANT.exec(before);
    const start = fromLine ? r - fromLine[0].length : r;
    const span: [number, number] = [start, end];
    from = Math.max(end, contentStart);
    if (quotedExample(found, text, span, 'a functionary <|recipient|> call')) continue;
    const args = readJsonArgs(ctx.source, contentStart, contentEnd);
    pushArgsCall(found, 'functionary', name, args, span, { truncated: false });
  }
  return found;
}

function findV3(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  const reach = new JsonReach(ctx.source);
  let candidates = 0;
  // where the previous message ended: a `>>>` there continues the chain even mid-line
  let chainEnd = -1;
  let at = text.indexOf(V3);
  while (at >= 0) {
    const next = text.indexOf(V3, at + V3.length);
    const bound = next < 0 ? text.length : next;
    const chained = at === 0 || text[at - 1] === '\n' || (chainEnd >= 0 && skipSpace(text, chainEnd, at) === at);
    if (!chained || text[at + V3.length] === '>') {
      at = next;
      continue;
    }
    if (atReadLimit(found, V3, at, text.length, ++candidates)) break;
    const nameStart = at + V3.length;
    const nl = text.slice(nameStart, Math.min(bound, nameStart + MAX_NAME)).indexOf('\n');
    const name = nl < 0 ? '' : text.slice(nameStart, nameStart + nl);
    if (!TOOL_NAME.test(name)) {
      at = next;
      continue;
    }
    const bodyStart = nameStart + nl + 1;
    if (name === ALL) {
      // text for the user, up to the next message
      chainEnd = bound;
      at = next;
      continue;
    }
    const end = readV3Call(found, text, ctx, at, name, bodyStart, bound, reach);
    if (end >= 0) chainEnd = end;
    // a `>>>` inside the call's JSON string values is text
    at = next >= 0 && next < end ? text.indexOf(V3, end) : next;
  }
  return found;
}

/** One `>>>NAME\n…` message: its call (or nothing when the body is not a call). Returns its end (-1: not a call). */
function readV3Call(
  found: Found,
  text: string,
  ctx: FinderContext,
  start: number,
  name: string,
  bodyStart: number,
  bound: number,
  reach: JsonReach,
): number {
  const i = skipSpace(text, bodyStart, bound);
  if (escapedJson(ctx.source, i)) return -1;
  if (text[i] !== '{') {
    if (name !== PYTHON || i >= bound) return -1;
    const span: [number, number] = [start, bound];
    if (quotedExample(found, text, span, 'a functionary >>>python call')) return bound;
    const code = ctx.source.slice(bodyStart, bound).replace(/\s+$/, '');
    found.spans.push(span);
    found.calls.push({
      name,
      args: { code },
      rawArgs: code,
      shape: 'functionary',
      repaired: false,
      truncated: false,
      doubleEncoded: false,
      span,
    });
    return bound;
  }
  const args = readJsonArgs(ctx.source, i, reach.limit(i, bound));
  const span: [number, number] = [start, Math.max(args.end, i + 1)];
  if (quotedExample(found, text, span, 'a functionary >>> call')) return span[1];
  pushArgsCall(found, 'functionary', name, args, span, { truncated: false });
  return span[1];
}
