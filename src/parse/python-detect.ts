import { atReadLimit, emptyFound, type FinderContext, type Found } from './found-call.js';
import { parsePythonCalls } from './python-call.js';

/** Model end-of-turn tokens some replies carry after the call (e.g. `<end_of_turn>` in the BFCL recordings). */
const TRAILING_TOKEN = /^\s*(?:<\|?[\w|/-]{1,40}\|?>\s*)*$/;

/** A call list's opening as models write it: `[name(` (spaces allowed), or `name(` with nothing between. */
const BRACKETED_START = /^\[\s*[\p{L}_][\p{L}\p{N}_.]*\s*\(/u;
const BARE_START = /^[\p{L}_][\p{L}\p{N}_.]*\(/u;
/** Malformed call lists reported per reply; the rest are counted in the last message. */
const MAX_MALFORMED = 3;
/** Call lists tried per reply: each costs a parse, and more than this many is a runaway reply. */
const MAX_LISTS = 500;

/**
 * python-call syntax outside fences (BFCL prompt mode): `[f(a=1), g(b=2)]`, or `f(a=1)` without brackets,
 * when it is the whole reply, or a line starting with `[name(` that the call list ends. Calls quoted inside a
 * sentence are prose, not calls. A budget bounds the work of failed attempts (linear overall).
 *
 * A list that opens like a call list but does not parse is still an attempt: cut off by the end of the reply
 * (max tokens), it is parsed up to the cut and its calls are flagged truncated (the one cut mid-arguments also
 * repaired, as jsonrepair does for JSON); broken before the end (`["a", "b")]`), it is an `unparseable-arguments`
 * diagnostic, so `no-call` counts it and `parseable` says why nothing parsed.
 */
export function findPythonCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  let budget = text.length + 10_000;
  let malformed = 0;
  let candidates = 0;
  const starts = candidateStarts(text);
  for (const start of starts) {
    // starts rise and each list found ends before the next start it allows: only the last span can hold this one
    const last = found.spans[found.spans.length - 1];
    if (last && start < last[1]) continue;
    if (budget <= 0 || atReadLimit(found, 'python-call', start, text.length, ++candidates, MAX_LISTS)) break;
    // located in the masked text, read as written (backticks inside a string value were masked as inline code)
    let py = parsePythonCalls(ctx.source, start);
    budget -= py.end - start;
    let cut = false;
    if (!py.ok) {
      if (!opensCallList(text, start)) continue;
      const end = text.trimEnd().length;
      const repaired = py.end >= end ? parsePythonCalls(ctx.source, start, true) : py;
      if (repaired !== py) budget -= repaired.end - start;
      if (!repaired.ok) {
        malformed++;
        if (malformed <= MAX_MALFORMED) {
          found.diagnostics.push({
            code: 'unparseable-arguments',
            message: `python-call list at ${start} does not parse: ${repaired.error}`,
            span: [start, Math.min(Math.max(repaired.end, start + 1), text.length)],
          });
        }
        continue;
      }
      py = repaired;
      cut = true;
    } else if (!TRAILING_TOKEN.test(lineRest(text, py.end))) continue;
    found.spans.push([start, py.end]);
    for (const c of py.calls) {
      found.calls.push({
        name: c.name,
        args: c.args,
        rawArgs: c.rawArgs,
        shape: 'python-call',
        repaired: c.truncated === true,
        truncated: c.truncated === true,
        doubleEncoded: false,
        span: c.span,
      });
      if (c.positional > 0) {
        found.diagnostics.push({
          code: 'wrong-shape',
          message: `${c.name}(…) has ${c.positional} positional argument(s); only keyword arguments name parameters`,
          span: c.span,
        });
      }
    }
    if (cut && py.calls.every((c) => !c.truncated)) {
      found.diagnostics.push({
        code: 'truncated',
        message: `call list cut short: the reply ends before its closing ']'`,
        span: [start, py.end],
      });
    }
  }
  if (malformed > MAX_MALFORMED) {
    found.diagnostics.push({
      code: 'unparseable-arguments',
      message: `${malformed - MAX_MALFORMED} more python-call list(s) that do not parse`,
    });
  }
  return found;
}

/** Whether the text at `start` opens a call list, so a failure to parse it is a malformed attempt, not prose. */
function opensCallList(text: string, start: number): boolean {
  const head = text.slice(start, start + 200);
  return BRACKETED_START.test(head) || BARE_START.test(head);
}

/** The whole reply's first character, and every line start whose text begins `[name(`. */
function candidateStarts(text: string): number[] {
  const starts: number[] = [];
  const first = text.length - text.trimStart().length;
  if (/^[\p{L}_[]/u.test(text.slice(first, first + 1))) starts.push(first);
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl < 0 ? text.length : nl;
    let s = at;
    while (s < lineEnd && (text[s] === ' ' || text[s] === '\t')) s++;
    if (s !== first && text[s] === '[' && /^\[\s*[\p{L}_][\p{L}\p{N}_.]*\s*\(/u.test(text.slice(s, s + 200))) {
      starts.push(s);
    }
    at = lineEnd + 1;
  }
  return starts;
}

/** The rest of the line after `end` (a call list must end its line). */
function lineRest(text: string, end: number): string {
  if (end >= text.length) return '';
  const nl = text.indexOf('\n', end);
  return text.slice(end, nl < 0 ? text.length : nl);
}
