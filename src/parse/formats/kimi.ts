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

const CALL_BEGIN = '<|tool_call_begin|>';
const ARGUMENT_BEGIN = '<|tool_call_argument_begin|>';
const CALL_END = '<|tool_call_end|>';
/** The section tokens around the calls (plural as the chat template writes them; singular as some outputs do). */
const SECTION_TOKENS = [
  '<|tool_calls_section_begin|>',
  '<|tool_call_section_begin|>',
  '<|tool_calls_section_end|>',
  '<|tool_call_section_end|>',
];
/** How far after `<|tool_call_begin|>` the call id may run before `<|tool_call_argument_begin|>`. */
const MAX_ID = 300;
const FUNCTIONS = 'functions.';
const INDEX = /:\d+$/;

/**
 * Kimi K2's calls: `<|tool_calls_section_begin|>` then, per call,
 * `<|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{json}<|tool_call_end|>`, then
 * `<|tool_calls_section_end|>`. The whole `functions.NAME:IDX` is the call id; the name is what stands between
 * `functions.` and the last `:IDX`. An id without the `functions.` prefix (`NAME:IDX`, which reference parsers also
 * accept) names the tool by all of it before `:IDX`, dots included (an MCP name such as `fs.read` is kept whole).
 * A call whose `<|tool_call_end|>` is missing (before the next call or the end of the reply) is `truncated`. The
 * section tokens are claimed with the calls. A `<|tool_call_begin|>` not followed by an id and its argument token
 * is prose that mentions it. Linear: each token is walked with one cursor.
 */
export function findKimiCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(CALL_BEGIN)) return found;
  const cursor = new TokenCursor(text, [CALL_BEGIN, ARGUMENT_BEGIN, CALL_END]);
  const reach = new JsonReach(ctx.source);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = cursor.next(0, from);
    if (start < 0 || atReadLimit(found, CALL_BEGIN, start, text.length, ++candidates)) break;
    const idStart = start + CALL_BEGIN.length;
    const nextCall = cursor.next(0, idStart);
    const bound = nextCall < 0 ? text.length : nextCall;
    const argBegin = cursor.next(1, idStart);
    const rawId =
      argBegin >= 0 && argBegin < bound && argBegin - idStart <= MAX_ID ? text.slice(idStart, argBegin) : '';
    const id = rawId.trim();
    const name = nameOf(id);
    const argsStart = argBegin + ARGUMENT_BEGIN.length;
    if (!name || escapedJson(ctx.source, argsStart)) {
      from = idStart;
      continue;
    }
    // the arguments are read first, so a close token inside a string value stays text
    const args = readJsonArgs(ctx.source, argsStart, reach.limit(argsStart, bound));
    const after = Math.max(args.end, argsStart);
    // the close token belongs to this call when no other call begins before it
    const closeAt = cursor.next(2, after);
    const nextBegin = cursor.next(0, after);
    const closed = closeAt >= 0 && (nextBegin < 0 || closeAt < nextBegin);
    const end = closed ? closeAt + CALL_END.length : after;
    const span: [number, number] = [start, end];
    from = end;
    if (quotedExample(found, text, span, 'a Kimi tool call')) continue;
    pushArgsCall(found, 'kimi', name, args, span, { truncated: !closed, id });
  }
  if (found.calls.length > 0) claimSectionTokens(text, found);
  return found;
}

/** The tool an id names: `functions.NAME:IDX` → NAME, `NAME:IDX` → NAME, `NAME` → NAME ('' when not a name). */
function nameOf(id: string): string {
  let name = id.startsWith(FUNCTIONS) ? id.slice(FUNCTIONS.length) : id;
  name = name.replace(INDEX, '');
  return TOOL_NAME.test(name) ? name : '';
}

/** The section begin/end tokens are part of the calls' markup: claimed, so no later finder reads them. */
function claimSectionTokens(text: string, found: Found): void {
  for (const token of SECTION_TOKENS) {
    for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length)) {
      found.spans.push([at, at + token.length]);
    }
  }
}
