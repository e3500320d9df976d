import { atReadLimit, emptyFound, type FinderContext, type Found, isIntroducedAsExample } from './found-call.js';
import { type PyParse, parsePythonCalls } from './python-call.js';

/** Model end-of-turn tokens some replies carry after the call (e.g. `<end_of_turn>` in the BFCL recordings). */
const TRAILING_TOKEN = /^\s*(?:<\|?[\w|/-]{1,40}\|?>\s*)*$/;

/** Malformed call lists reported per reply; the rest are counted in the last message. */
const MAX_MALFORMED = 3;
/** Call lists tried per reply: each costs a parse, and more than this many is a runaway reply. */
const MAX_LISTS = 500;
/** How far a call's head (`[ name (`) may reach: a longer name is not a tool's. */
const HEAD_LIMIT = 200;

/** Where a call list may start, and how it is written there. */
interface Candidate {
  at: number;
  /** `[name(…)]`, the protocol's list; otherwise `name(…)` alone. */
  bracketed: boolean;
  /** The reply's first character (after reasoning and claimed regions, which are masked). */
  first: boolean;
  /** After prose on its line (a colon or a sentence end before it). */
  afterProse: boolean;
}

/**
 * python-call syntax outside fences (BFCL prompt mode): `[f(a=1), g(b=2)]`, or `f(a=1)` without brackets. A call
 * list is read where it stands as a statement of its own, and it must end its line (only end-of-turn tokens such as
 * `<end_of_turn>` may follow it there), except that a bracketed list of keyword-argument calls at the start of the reply
 * or of a line may be followed by prose on its line (`[get_weather(city="Oslo")] Here's the forecast:`):
 * - at the start of the reply, or of any line: a bracketed list, or bare calls (one call per line, or a list
 *   continued over lines with commas), so replies of several calls on separate lines are read whole;
 * - after prose on the same line, only a bracketed list, and only right after a colon or a sentence's end
 *   (`Sure, I'll look that up: [get_weather(city="Oslo")]`, `I'll check. [f(a=1)]`).
 * So a call quoted inside a sentence is prose: `You could call get_weather(city="Oslo") if you like.` does not end
 * its line, and `…you could call get_weather(city="Oslo")` follows no colon or sentence end. Calls with positional
 * arguments written bare or after prose (`print("x")`, `Note: [see(above)]`) are code or prose, not tool calls,
 * unless the call is the whole reply (BFCL grades such a reply as a call with wrong arguments; `wrong-shape` says
 * why); a bracketed list on a line of its own keeps them, as before. An example introduced as such ("for example:
 * …") is a `quoted-example` diagnostic. A budget bounds the work of failed attempts (linear overall).
 *
 * A list that opens like a call list but does not parse is still an attempt: cut off by the end of the reply
 * (max tokens), it is parsed up to the cut and its calls are flagged truncated (the one cut mid-arguments also
 * repaired, as jsonrepair does for JSON); broken before the end (`["a", "b")]`), it is an `unparseable-arguments`
 * diagnostic, so `no-call` counts it and `parseable` says why nothing parsed, when it is the reply's first call, a
 * bracketed list on a line of its own, or a list after prose that opens with a keyword argument (`[f(a=`). A bare
 * line that breaks, or a list after prose that opens otherwise, is prose that happens to hold `word(`.
 */
export function findPythonCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes('(')) return found;
  let budget = text.length + 10_000;
  let malformed = 0;
  let candidates = 0;
  const end = text.trimEnd().length;
  for (const c of candidateStarts(text)) {
    const start = c.at;
    // starts rise and each list found ends before the next start it allows: only the last span can hold this one
    const last = found.spans[found.spans.length - 1];
    if (last && start < last[1]) continue;
    if (budget <= 0 || atReadLimit(found, 'python-call', start, text.length, ++candidates, MAX_LISTS)) break;
    // located in the masked text, read as written (backticks inside a string value were masked as inline code)
    let py: PyParse = parsePythonCalls(ctx.source, start);
    budget -= py.end - start;
    let cut = false;
    if (!py.ok) {
      if (c.first && !opensCallList(text, start)) continue;
      const repaired = py.end >= end ? parsePythonCalls(ctx.source, start, true) : py;
      if (repaired !== py) budget -= repaired.end - start;
      if (!repaired.ok) {
        // a bare line, or a list after prose whose first argument is not a keyword, that breaks is prose
        if (!c.first && (!c.bracketed || (c.afterProse && !keywordHead(text, start)))) continue;
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
    } else if (!TRAILING_TOKEN.test(lineRest(text, py.end)) && !proseAfterList(text, c, py)) continue;
    const whole = c.first && (cut || TRAILING_TOKEN.test(text.slice(py.end)));
    const codeLike = !c.bracketed || c.afterProse;
    if (codeLike && !whole && py.calls.some((call) => call.positional > 0)) continue;
    found.spans.push([start, py.end]);
    if (isIntroducedAsExample(text, start)) {
      found.diagnostics.push({
        code: 'quoted-example',
        message: 'a python call shown as an example',
        span: [start, py.end],
      });
      continue;
    }
    for (const call of py.calls) {
      found.calls.push({
        name: call.name,
        args: call.args,
        rawArgs: call.rawArgs,
        shape: 'python-call',
        repaired: call.truncated === true,
        truncated: call.truncated === true,
        doubleEncoded: false,
        span: call.span,
      });
      if (call.positional > 0) {
        found.diagnostics.push({
          code: 'wrong-shape',
          message: `${call.name}(…) has ${call.positional} positional argument(s); only keyword arguments name parameters`,
          span: call.span,
        });
      }
    }
    if (cut && py.calls.every((call) => !call.truncated)) {
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

/**
 * Whether a call list that does not end its line is still a call list followed by prose (`[get_weather(city="Oslo")]
 * Here's the forecast:`): a bracketed list standing at the start of the reply or of a line, whose calls name every
 * argument (a positional one reads as code), followed by a space and more text.
 */
function proseAfterList(text: string, c: Candidate, py: PyParse & { ok: true }): boolean {
  if (!c.bracketed || c.afterProse || text[py.end - 1] !== ']') return false;
  if (py.calls.some((call) => call.positional > 0)) return false;
  const next = text[py.end];
  return (next === ' ' || next === '\t') && /\S/.test(lineRest(text, py.end));
}

/** Whether the text at `start` opens a call list, so a failure to parse it is a malformed attempt, not prose. */
function opensCallList(text: string, start: number): boolean {
  return callHead(text, start) !== undefined;
}

/**
 * The candidates in text order: the reply's first character; every line's first character that opens a call
 * (`[name(` or `name(`); and every `[name(` after a colon or sentence end on its line (ASCII punctuation then a
 * space or tab; CJK punctuation with or without one).
 */
function candidateStarts(text: string): Candidate[] {
  const out: Candidate[] = [];
  const first = text.length - text.trimStart().length;
  if (/^[\p{L}_[]/u.test(text.slice(first, first + 1))) {
    out.push({ at: first, bracketed: text[first] === '[', first: true, afterProse: false });
  }
  let at = 0;
  // the next `[`, searched again only once the walk passes it (lines without one stay linear)
  let bracket = -2;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl < 0 ? text.length : nl;
    let s = at;
    while (s < lineEnd && (text[s] === ' ' || text[s] === '\t')) s++;
    if (s !== first && s < lineEnd) {
      const head = callHead(text, s);
      if (head !== undefined) out.push({ at: s, bracketed: head, first: false, afterProse: false });
    }
    if (bracket === -2 || (bracket >= 0 && bracket <= s)) bracket = nextSpacedBracket(text, s + 1);
    while (bracket >= 0 && bracket < lineEnd) {
      if (afterSentence(text, bracket, s) && callHead(text, bracket) === true) {
        out.push({ at: bracket, bracketed: true, first: false, afterProse: true });
      }
      bracket = nextSpacedBracket(text, bracket + 1);
    }
    at = lineEnd + 1;
  }
  return out;
}

/**
 * Whether a call opens at `i`: true for `[ name (` (spaces allowed), false for `name(` (nothing between), undefined
 * for neither. Names may be dotted. Reads at most HEAD_LIMIT characters.
 */
function callHead(text: string, i: number): boolean | undefined {
  const limit = Math.min(text.length, i + HEAD_LIMIT);
  const bracketed = text[i] === '[';
  let j = i;
  if (bracketed) {
    j++;
    while (j < limit && isBlank(text, j)) j++;
  }
  if (j >= limit || !isNameStart(text, j)) return undefined;
  j++;
  while (j < limit && (isNameChar(text, j) || text[j] === '.')) j++;
  if (bracketed) while (j < limit && isBlank(text, j)) j++;
  return text[j] === '(' && j < limit ? bracketed : undefined;
}

/** A `[` after a space, a tab or CJK sentence punctuation: the only ones afterSentence can accept. */
const SPACED_BRACKET = /[ \t：。！？]\[/g;

/** The next `[` at or after `from` that follows a space, a tab or CJK punctuation, or -1. */
function nextSpacedBracket(text: string, from: number): number {
  SPACED_BRACKET.lastIndex = Math.max(0, from - 1);
  const m = SPACED_BRACKET.exec(text);
  return m ? m.index + 1 : -1;
}

/** Whether the call list at `at` opens with a keyword argument or empty parentheses: `[name(key=` or `[name()`. */
function keywordHead(text: string, at: number): boolean {
  const open = text.indexOf('(', at);
  if (open < 0 || open - at > HEAD_LIMIT) return false;
  let i = open + 1;
  while (i < text.length && isBlank(text, i)) i++;
  if (text[i] === ')') return true;
  if (!isNameStart(text, i)) return false;
  while (i < text.length && isNameChar(text, i)) i++;
  while (i < text.length && isBlank(text, i)) i++;
  return text[i] === '=' && text[i + 1] !== '=';
}

const SENTENCE_END = new Set([':', '.', '!', '?']);
const CJK_SENTENCE_END = new Set(['：', '。', '！', '？']);

/** Whether `[` at `b` follows a colon or a sentence end on its line (after the line's first character `s`). */
function afterSentence(text: string, b: number, s: number): boolean {
  let i = b - 1;
  while (i > s && (text[i] === ' ' || text[i] === '\t')) i--;
  const ch = text[i] as string;
  if (CJK_SENTENCE_END.has(ch)) return true;
  return i < b - 1 && SENTENCE_END.has(ch);
}

function isBlank(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isNameStart(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
  return /\p{L}/u.test(text[i] as string);
}

function isNameChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  return /[\p{L}\p{N}]/u.test(text[i] as string);
}

/** The rest of the line after `end` (a call list must end its line). */
function lineRest(text: string, end: number): string {
  if (end >= text.length) return '';
  const nl = text.indexOf('\n', end);
  return text.slice(end, nl < 0 ? text.length : nl);
}
