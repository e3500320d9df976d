import {
  atReadLimit,
  emptyFound,
  type FinderContext,
  type Found,
  type FoundCall,
  isIntroducedAsExample,
  MAX_FINDINGS_PER_REPLY,
} from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import { type PyCall, parsePythonCalls } from '../python-call.js';
import { TagBodies } from '../tag-bodies.js';

const OPEN = '<function_calls>';
const CLOSE = '</function_calls>';
/** A block's body opens like a call list: `name(` or `[name(`, spaces allowed (looked for in 200 characters). */
const CALL_START = /^\[?\s*[\p{L}_][\p{L}\p{N}_.]*\s*\(/u;
/** Calls read from one block: more is a runaway reply. */
const MAX_CALLS = 200;

/**
 * OLMo 3's calls: `<function_calls>` holding python-style calls, one per line (`get_weather(city="Paris")`), closed by
 * `</function_calls>`. Values are python literals; OLMo also writes JSON's `true` / `false` / `null`, read as the
 * literals they are (as the reference parsers do). A bracketed list `[f(…), g(…)]` in the block is read too.
 *
 * Anthropic-style replies use the same tag with `<invoke>` inside; the invoke finder runs first and claims those, so a
 * block reaches this finder only when no invoke was in it. A block is OLMo's only when its body opens like a call
 * list: prose that names the tag is not a call. A body that opens like one but does not parse is an
 * `unparseable-arguments` attempt. A block the reply cut off is parsed up to the cut (the brackets and quotes it left
 * open closed, the call it cut flagged truncated and repaired); its last call lacks its closing token, so it is
 * flagged truncated too. Linear: TagBodies and one python parse per call line.
 */
export function findOlmoCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(OPEN)) return found;
  const bodies = new TagBodies(text, OPEN, CLOSE);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = text.indexOf(OPEN, from);
    if (start < 0) break;
    const bodyStart = start + OPEN.length;
    from = bodyStart;
    const first = skipSpace(text, bodyStart, bodyStart + 200);
    if (!CALL_START.test(text.slice(first, first + 200))) continue;
    const { bodyEnd, closed } = bodies.from(bodyStart);
    if (first >= bodyEnd) continue;
    if (atReadLimit(found, 'OLMo <function_calls>', start, text.length, ++candidates)) break;
    const end = closed ? bodyEnd + CLOSE.length : bodyEnd;
    const span: [number, number] = [start, end];
    found.spans.push(span);
    from = end;
    if (isIntroducedAsExample(text, start)) {
      found.diagnostics.push({
        code: 'quoted-example',
        message: 'an OLMo <function_calls> block shown as an example',
        span,
      });
      continue;
    }
    readBlock(ctx.source.slice(bodyStart, bodyEnd), bodyStart, closed, found);
  }
  return found;
}

/** The calls of one block body (`offset`: where the body starts in the reply). */
function readBlock(written: string, offset: number, closed: boolean, found: Found): void {
  const body = jsonLiteralsAsPython(written);
  const calls: FoundCall[] = [];
  const max = Math.min(MAX_CALLS, MAX_FINDINGS_PER_REPLY - found.calls.length - found.diagnostics.length);
  let pos = skipSpace(body, 0);
  while (pos < body.length) {
    if (calls.length >= max) {
      found.diagnostics.push({
        code: 'other',
        message: `OLMo <function_calls>: stopped reading at offset ${offset + pos}: the block holds more calls than the parser reads`,
      });
      break;
    }
    let py = parsePythonCalls(body, pos);
    // the reply cut the block off: what was written is closed where it ends
    if (!py.ok && !closed && py.end >= body.trimEnd().length) py = parsePythonCalls(body, pos, true);
    if (!py.ok) {
      found.diagnostics.push({
        code: 'unparseable-arguments',
        message: `OLMo <function_calls> call at ${offset + pos} does not parse: ${py.error}`,
        span: [offset + pos, offset + Math.max(pos + 1, Math.min(py.end, body.length))],
      });
      break;
    }
    for (const c of py.calls) calls.push(toFound(c, written, body, offset));
    pos = skipSpace(body, py.end);
    // text after the calls that is not another call ends the block's calls (it stays part of the block)
    if (!CALL_START.test(body.slice(pos, pos + 200))) break;
  }
  const last = calls[calls.length - 1];
  if (last && !closed) last.truncated = true;
  found.calls.push(...calls);
}

function toFound(c: PyCall, written: string, body: string, offset: number): FoundCall {
  // the arguments as written (the literals rewritten for the parser have the same length, so offsets agree)
  const argsAt = body.indexOf('(', c.span[0]) + 1;
  const rawArgs = written.slice(argsAt, argsAt + c.rawArgs.length);
  return {
    name: c.name,
    args: c.args,
    rawArgs,
    shape: 'olmo',
    repaired: c.truncated === true,
    truncated: c.truncated === true,
    doubleEncoded: false,
    span: [offset + c.span[0], offset + c.span[1]],
  };
}

const PYTHON_LITERAL: ReadonlyMap<string, string> = new Map([
  ['true', 'True'],
  ['false', 'False'],
  ['null', 'None'],
]);

/**
 * JSON's `true` / `false` / `null` written as bare words outside strings become python's `True` / `False` / `None`
 * (same lengths, so positions stay valid). Strings (every quote kind, triple quotes, escapes) are left as written.
 */
function jsonLiteralsAsPython(body: string): string {
  if (!/\b(?:true|false|null)\b/.test(body)) return body;
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < body.length) {
    const ch = body[i] as string;
    if (ch === '"' || ch === "'") {
      i = stringEnd(body, i);
      continue;
    }
    if (isWordChar(body.charCodeAt(i))) {
      let j = i + 1;
      while (j < body.length && isWordChar(body.charCodeAt(j))) j++;
      const literal = j - i <= 5 ? PYTHON_LITERAL.get(body.slice(i, j)) : undefined;
      // `x.null` is an attribute and `null(` a call: only a value is rewritten
      if (literal && body[i - 1] !== '.' && body[skipSpace(body, j)] !== '(') {
        out += body.slice(copied, i) + literal;
        copied = j;
      }
      i = j;
      continue;
    }
    i++;
  }
  return out + body.slice(copied);
}

/** `[A-Za-z0-9_]` (a number's digits are read as one word with it, which is harmless here). */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Just past the string that opens at `i` (single, double or triple quoted; an unclosed one runs to the end). */
function stringEnd(body: string, i: number): number {
  const q = body[i] as string;
  const triple = body.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let j = i + close.length;
  while (j < body.length) {
    if (body[j] === '\\') {
      j += 2;
      continue;
    }
    if (body.startsWith(close, j)) return j + close.length;
    if (!triple && body[j] === '\n') return j;
    j++;
  }
  return body.length;
}
