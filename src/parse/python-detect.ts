import { emptyFound, type Found } from './found-call.js';
import { parsePythonCalls } from './python-call.js';

/** Model end-of-turn tokens some replies carry after the call (e.g. `<end_of_turn>` in the BFCL recordings). */
const TRAILING_TOKEN = /^\s*(?:<\|?[\w|/-]{1,40}\|?>\s*)*$/;

/**
 * python-call syntax outside fences (BFCL prompt mode): `[f(a=1), g(b=2)]`, or `f(a=1)` without brackets,
 * when it is the whole reply, or a line starting with `[name(` that the call list ends. Calls quoted inside a
 * sentence are prose, not calls. A budget bounds the work of failed attempts (linear overall).
 */
export function findPythonCalls(text: string): Found {
  const found = emptyFound();
  let budget = 2 * text.length + 10_000;
  const starts = candidateStarts(text);
  for (const start of starts) {
    if (budget <= 0) break;
    if (found.spans.some(([s, e]) => start >= s && start < e)) continue;
    const py = parsePythonCalls(text, start);
    budget -= py.end - start;
    if (!py.ok || !TRAILING_TOKEN.test(lineRest(text, py.end))) continue;
    found.spans.push([start, py.end]);
    for (const c of py.calls) {
      found.calls.push({
        name: c.name,
        args: c.args,
        rawArgs: c.rawArgs,
        shape: 'python-call',
        repaired: false,
        truncated: false,
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
  }
  return found;
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
