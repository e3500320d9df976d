import type { ParseTool } from '../contracts/parse.js';
import { atReadLimit, type Found, type FoundCall, isIntroducedAsExample } from './found-call.js';
import { callsInBody } from './json-body.js';
import { skipSpace } from './json-scan.js';

export interface FencedCall extends FoundCall {
  /** Info string of the fence (`tool_call`, `json`, `xml`, `python`, `` for a bare fence). */
  fence: string;
  inline: boolean;
}

/** What a fence finder accumulates, with the offered tools its bodies' text values are converted by. */
interface Reading extends FenceFound {
  tools: readonly ParseTool[];
}

/** A fence or inline code span, whether or not it held a call. */
export interface FenceRegion {
  span: [number, number];
  fence: string;
  inline: boolean;
}

export interface FenceFound extends Found {
  text: string;
  calls: FencedCall[];
  regions: FenceRegion[];
}

/** Info strings that say "this block is a call": an unreadable body is still a call attempt. */
const CALL_FENCES = new Set(['tool_call', 'tool', 'function_call', 'tool_code']);

/**
 * Calls inside runs of three or more backticks, as markdown reads them:
 * - a multi-line fence, when the run is followed on its line by an optional info word and then the line break (or
 *   the end of the reply); after prose on the same line too (models write `Here: ```json⏎`). At the start of a
 *   line, anything without backticks after the run opens one as well, as in markdown; what follows an info word
 *   there is the body's first line (```` ```json {⏎ ````, ```` ```[f(a=1)]⏎ ````, where markdown would file it under
 *   the info string). The fence ends at the next run of as many backticks that starts its line or ends it
 *   (```` …}``` ````), or, unclosed, at the end of the reply (flagged truncated).
 * - otherwise a one-line span, closed by the next run of three or more backticks on the same line
 *   (```` ```[get_weather(city="Oslo")]``` ````, ```` ```python [f(a=1)]``` ````). It is reported as `fenced`, like a
 *   fence, since the model wrote a fence's backticks: markdown-wrapped labels it ```` ``` ````, or ```` ```python ````
 *   when a word before the call names the language (infoWord). On the reply's last line and opening a call (`[`,
 *   `{`, `<` or `name(`), a span the reply cut off runs to the end, flagged truncated.
 * - otherwise literal backticks (a string value holding ```` ``` ````, `Use ``` to open a fence`): no fence, and
 *   inline code passes over them too.
 * So a string value holding "```python\nprint(1)\n```" (escaped line breaks: no break in the raw text) is a one-line
 * span inside its call, not a fence that swallows the rest of the reply.
 *
 * Each body is read as a JSON call or python-call syntax. Calls with delimiters of their own (`<tool_call>`, model
 * tokens) were claimed before and are masked in `text`: parse/index.ts reports those inside a fence as wrapped by
 * it. A body is located in `text`; `source`, the reply as written at the same offsets, is what is read when the body
 * does not start with a claimed region (so a string value holding tag-like text another finder claimed keeps it,
 * and a claimed call is not read twice).
 */
export function findFencedCalls(text: string, source: string = text, tools: readonly ParseTool[] = []): FenceFound {
  const out: Reading = { text, calls: [], diagnostics: [], spans: [], regions: [], tools };
  if (!text.includes('```')) return out;
  let from = 0;
  let candidates = 0;
  // the next line break, searched again only once the scan passes it (a long line of runs stays linear)
  let nl = -2;
  for (;;) {
    const open = text.indexOf('```', from);
    if (open < 0) break;
    let tick = open + 3;
    while (text[tick] === '`') tick++;
    if (nl === -2 || (nl >= 0 && nl < tick)) nl = text.indexOf('\n', tick);
    const lineEnd = nl < 0 ? text.length : nl;
    if (opensFence(text, open, tick, lineEnd)) {
      if (atReadLimit(out, 'fenced', open, text.length, ++candidates)) break;
      const [info, after] = infoWord(text, tick, lineEnd);
      const bodyStart = after < lineEnd ? after : Math.min(text.length, lineEnd + 1);
      const close = closingRun(text, bodyStart, tick - open);
      const end = close ? close.end : text.length;
      addRegion(out, source, [open, end], info, [bodyStart, close ? close.at : text.length], !close);
      from = end;
      continue;
    }
    const close = text.indexOf('```', tick);
    const closed = close >= 0 && close < lineEnd;
    if (closed || (lineEnd === text.length && opensCall(text, tick))) {
      if (atReadLimit(out, 'fenced', open, text.length, ++candidates)) break;
      let end = closed ? close + 3 : text.length;
      while (text[end] === '`') end++;
      const [word, bodyStart] = infoWord(text, tick, closed ? close : text.length);
      addRegion(out, source, [open, end], word, [bodyStart, closed ? close : text.length], !closed);
      from = end;
      continue;
    }
    // literal backticks: findInlineCodeCalls passes over them too
    from = tick;
  }
  return out;
}

/**
 * Whether the run `[open, tick)` opens a multi-line fence: nothing on the rest of its line but an optional info
 * word, or, at the start of a line, anything without backticks.
 */
function opensFence(text: string, open: number, tick: number, lineEnd: number): boolean {
  let i = tick;
  while (i < lineEnd && isWordChar(text.charCodeAt(i))) i++;
  // a word starts with a letter: `Wrap code in ```.` is prose
  if ((i === tick || isLetter(text.charCodeAt(tick))) && skipBlank(text, i, lineEnd) === lineEnd) return true;
  if (!startsLine(text, open, 0)) return false;
  const backtick = text.indexOf('`', tick);
  return backtick < 0 || backtick >= lineEnd;
}

/** Where a fence opened by `ticks` backticks closes: the next run of as many that starts or ends its line. */
function closingRun(text: string, from: number, ticks: number): { at: number; end: number } | undefined {
  const run = '`'.repeat(ticks);
  for (let at = text.indexOf(run, from); at >= 0; ) {
    let end = at + ticks;
    while (text[end] === '`') end++;
    if (startsLine(text, at, from) || endsLine(text, end)) return { at, end };
    at = text.indexOf(run, end);
  }
  return undefined;
}

/**
 * The info word after a run of backticks, and where the code after it starts on the same line (`to` when nothing
 * follows). A word is the info when nothing follows it, when a call's bracket does (```` ```python [f(a=1)]``` ````,
 * ```` ```json {…}``` ````), or a space and then something other than the `(`, `=` or `.` that would make the word
 * part of the code (```` ```get_weather(city="Oslo")``` ```` has none).
 */
function infoWord(text: string, from: number, to: number): [string, number] {
  let i = from;
  while (i < to && isWordChar(text.charCodeAt(i))) i++;
  const next = skipBlank(text, i, to);
  if (i > from && isLetter(text.charCodeAt(from))) {
    const info = text.slice(from, i).toLowerCase();
    const ch = text[next];
    if (next === to || ch === '[' || ch === '{' || ch === '<') return [info, next];
    if (next > i && ch !== '(' && ch !== '=' && ch !== '.') return [info, next];
    return ['', skipBlank(text, from, to)];
  }
  return ['', skipBlank(text, from, to)];
}

/** Whether the text after a cut-off span's backticks opens a call: `[`, `{`, `<` or `name(`, after an info word. */
function opensCall(text: string, from: number): boolean {
  const end = Math.min(text.length, from + 200);
  const [, start] = infoWord(text, from, end);
  const i = skipBlank(text, start, end);
  const ch = text[i];
  if (ch === '[' || ch === '{' || ch === '<') return true;
  let j = i;
  while (j < end && (isWordChar(text.charCodeAt(j)) || text[j] === '.')) j++;
  return j > i && text[j] === '(';
}

function addRegion(
  out: Reading,
  source: string,
  span: [number, number],
  fence: string,
  [bodyStart, bodyEnd]: [number, number],
  truncated: boolean,
): void {
  out.spans.push(span);
  out.regions.push({ span, fence, inline: false });
  addBody(out, bodyOf(out.text, source, bodyStart, bodyEnd), bodyStart, span, fence, false, truncated);
}

/** Inline code spans `` `…` `` on one line (run after fences are masked). `source` as for findFencedCalls. */
export function findInlineCodeCalls(text: string, source: string = text, tools: readonly ParseTool[] = []): FenceFound {
  const out: Reading = { text, calls: [], diagnostics: [], spans: [], regions: [], tools };
  if (!text.includes('`')) return out;
  let from = 0;
  let candidates = 0;
  // the next line break, searched again only once we pass it (a long line of backticks stays linear)
  let nl = -2;
  for (;;) {
    const open = text.indexOf('`', from);
    if (open < 0) break;
    if (text[open + 1] === '`' && text[open + 2] === '`') {
      // three or more that findFencedCalls left: literal backticks
      from = open + 3;
      while (text[from] === '`') from++;
      continue;
    }
    const close = text.indexOf('`', open + 1);
    if (close < 0) break;
    if (nl === -2 || (nl >= 0 && nl <= open)) nl = text.indexOf('\n', open + 1);
    if (nl >= 0 && nl < close) {
      from = nl + 1;
      continue;
    }
    const body = bodyOf(text, source, open + 1, close);
    // Names alone (`read_data_from_excel`) are prose; only something call-shaped is worth reading.
    if (/[{(]/.test(body)) {
      if (atReadLimit(out, 'inline-code', open, text.length, ++candidates)) break;
      addBody(out, body, open + 1, [open, close + 1], '', true, false);
    }
    out.spans.push([open, close + 1]);
    out.regions.push({ span: [open, close + 1], fence: '', inline: true });
    from = close + 1;
  }
  return out;
}

/** A body as written, unless it starts with a region claimed before (then as masked: that call is read already). */
function bodyOf(text: string, source: string, start: number, end: number): string {
  if (source === text) return text.slice(start, end);
  const i = skipSpace(text, start, end);
  return i < end && skipSpace(source, start, end) === i ? source.slice(start, end) : text.slice(start, end);
}

function addBody(
  out: Reading,
  body: string,
  offset: number,
  span: [number, number],
  fence: string,
  inline: boolean,
  truncated: boolean,
): void {
  const attempt = !inline && CALL_FENCES.has(fence);
  const found = callsInBody(body, offset, { attempt, truncated, requireArgs: !attempt, tools: out.tools });
  if (inline) for (const c of found.calls) if (c.shape === 'json') c.shape = 'bare-json';
  if (isIntroducedAsExample(out.text, span[0]) && found.calls.length > 0) {
    out.diagnostics.push({
      code: 'quoted-example',
      message: `a call shown as an example in ${label(fence, inline)}`,
      span,
    });
    return;
  }
  for (const c of found.calls) {
    // Code samples such as `print("hi")` are not tool calls: BFCL-style calls use keyword arguments only.
    if (c.shape === 'python-call' && !attempt && Object.keys(c.args as object).some((k) => /^_\d+$/.test(k))) continue;
    out.calls.push({ ...c, span, fence, inline });
  }
  out.diagnostics.push(...found.diagnostics);
}

function label(fence: string, inline: boolean): string {
  return inline ? 'inline code' : `a \`\`\`${fence} fence`;
}

/** Whether only spaces and tabs stand between `at` and the start of its line (or `floor`, a line's start). */
function startsLine(text: string, at: number, floor: number): boolean {
  let i = at - 1;
  while (i >= floor && (text[i] === ' ' || text[i] === '\t')) i--;
  return i < floor || text[i] === '\n';
}

/** The first character at or after `i` (before `end`) that is not a space, tab or carriage return. */
function skipBlank(text: string, i: number, end: number): number {
  while (i < end && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
  return i;
}

/** Whether only spaces and tabs stand between `i` and the end of its line. */
function endsLine(text: string, i: number): boolean {
  const j = skipBlank(text, i, text.length);
  return j === text.length || text[j] === '\n';
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** A character of an info word as models write it (`json`, `tool_call`, `c++`, `c#`, `objective-c`, `py3.11`). */
function isWordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 43 ||
    c === 35 ||
    c === 46 ||
    c === 45
  );
}
