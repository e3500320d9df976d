import { atReadLimit, emptyFound, type FinderContext, type Found } from '../found-call.js';
import {
  escapedJson,
  JsonReach,
  pushArgsCall,
  quotedExample,
  readJsonArgs,
  TOOL_NAME,
  TokenCursor,
} from './token-scan.js';

const BEGIN = '<|tool_call:begin|>';
const NAME = '<|tool_call:name|>';
const ARGS = '<|tool_call:args|>';
const END = '<|tool_call:end|>';
/** The section token before the calls, and the one after them, claimed with the calls. */
const SECTION_TOKENS = ['<|tool_calls|>', '<|calls|>'];
/** How far the id after `<|tool_call:begin|>`, and the name after `<|tool_call:name|>`, may run. */
const MAX_HEAD = 300;

/**
 * Solar Open's calls: `<|tool_calls|>` then, per call, `<|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{json}
 * <|tool_call:end|>`. The id becomes the call id. A call whose end token is missing (the reply cut off, or the next call
 * began) is `truncated`; a begin token not followed by a name and the args token is prose that mentions it. Reasoning
 * in `<|think|>…<|end|>` is masked before (reasoning channels). Linear: cursors walk the tokens.
 */
export function findSolarCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(BEGIN)) return found;
  const cursor = new TokenCursor(text, [BEGIN, NAME, ARGS, END]);
  const reach = new JsonReach(ctx.source);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = cursor.next(0, from);
    if (start < 0 || atReadLimit(found, BEGIN, start, text.length, ++candidates)) break;
    const idStart = start + BEGIN.length;
    from = idStart;
    const next = cursor.next(0, idStart);
    const bound = next < 0 ? text.length : next;
    const nameAt = cursor.next(1, idStart);
    const argsAt = nameAt >= 0 ? cursor.next(2, nameAt) : -1;
    if (nameAt < 0 || argsAt < 0 || argsAt >= bound || nameAt - idStart > MAX_HEAD || argsAt - nameAt > MAX_HEAD) {
      continue;
    }
    const id = text.slice(idStart, nameAt).trim();
    const name = text.slice(nameAt + NAME.length, argsAt).trim();
    const argsStart = argsAt + ARGS.length;
    if (!TOOL_NAME.test(name) || escapedJson(ctx.source, argsStart)) continue;
    const args = readJsonArgs(ctx.source, argsStart, reach.limit(argsStart, bound));
    const after = Math.max(args.end, argsStart);
    const closeAt = cursor.next(3, after);
    const nextBegin = cursor.next(0, after);
    const closed = closeAt >= 0 && (nextBegin < 0 || closeAt < nextBegin);
    const end = closed ? closeAt + END.length : after;
    const span: [number, number] = [start, end];
    from = end;
    if (quotedExample(found, text, span, 'a Solar Open tool call')) continue;
    pushArgsCall(found, 'solar', name, args, span, { truncated: !closed, ...(id ? { id } : {}) });
  }
  if (found.calls.length > 0) {
    for (const token of SECTION_TOKENS) {
      for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length)) {
        found.spans.push([at, at + token.length]);
      }
    }
  }
  return found;
}
