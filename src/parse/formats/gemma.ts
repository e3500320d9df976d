import { setKey } from '../../util/set-key.js';
import type { FoundCall } from '../found-call.js';
import { atReadLimit, emptyFound, type FinderContext, type Found } from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import { quotedExample, TOOL_NAME, TokenCursor } from './token-scan.js';

/** One spelling of the family's call markup. */
interface Markup {
  open: string;
  close: string;
  /** The token that opens and closes a string value. */
  quote: string;
}

const MARKUPS: readonly Markup[] = [
  // Gemma 4
  { open: '<|tool_call>', close: '<tool_call|>', quote: '<|"|>' },
  // FunctionGemma
  { open: '<start_function_call>', close: '<end_function_call>', quote: '<escape>' },
];
const CALL = 'call:';
/** How far after `call:` the tool name may run before its `{`. */
const MAX_NAME = 200;

/**
 * Gemma's call tokens: Gemma 4 `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:42,flag:true,o:{…},l:[…]}<tool_call|>` and
 * FunctionGemma `<start_function_call>call:NAME{key:<escape>text<escape>,…}<end_function_call>`. Keys are bare; a
 * string value is delimited by the family's string token (`<|"|>`, `<escape>`), which is read as the string's
 * quotes, never left in the value; other values are numbers, booleans, null, objects and lists (GemmaArgs).
 * Several calls per reply, each in its own tokens (or, as Gemma 4 also writes them, one `call:` after another inside
 * one pair). The model writes the closing token before its stop token, so a call without it is `truncated`; so is
 * one whose arguments the reply cut off (also `repaired`). The open token not followed by `call:NAME{` is prose that
 * mentions it. Gemma 3's ```` ```tool_code ```` fences hold python calls, which the fence finder reads.
 */
export function findGemmaCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  for (const markup of MARKUPS) {
    if (text.includes(markup.open)) findMarkup(text, ctx, markup, found);
  }
  return found;
}

function findMarkup(text: string, ctx: FinderContext, markup: Markup, found: Found): void {
  const tokens = new TokenCursor(text, [markup.open, markup.close]);
  const quotes = new TokenCursor(ctx.source, [markup.quote]);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = tokens.next(0, from);
    if (start < 0 || atReadLimit(found, markup.open, start, text.length, ++candidates)) break;
    const bodyStart = start + markup.open.length;
    from = bodyStart;
    const next = tokens.next(0, bodyStart);
    const bound = next < 0 ? text.length : next;
    const calls: FoundCall[] = [];
    const errors: string[] = [];
    let at = skipSpace(text, bodyStart, bound);
    while (text.startsWith(CALL, at)) {
      const read = readCall(ctx.source, at + CALL.length, bound, markup, quotes);
      if (!read) break;
      if (typeof read.result === 'string') errors.push(`${read.name}: ${read.result}`);
      else calls.push(read.result);
      at = skipSpace(text, read.end, bound);
      if (typeof read.result === 'string') break;
    }
    if (calls.length === 0 && errors.length === 0) continue;
    const closeAt = tokens.next(1, at);
    const closed = closeAt >= 0 && closeAt < bound;
    const end = closed ? closeAt + markup.close.length : at;
    const span: [number, number] = [start, end];
    from = end;
    if (quotedExample(found, text, span, `a ${markup.open} call`)) continue;
    found.spans.push(span);
    for (const c of calls) {
      c.span = span;
      if (!closed) c.truncated = true;
      found.calls.push(c);
    }
    for (const e of errors) {
      found.diagnostics.push({ code: 'unparseable-arguments', message: `arguments of the gemma call ${e}`, span });
    }
  }
}

/**
 * `NAME{…}` after `call:`: the call, or why its arguments do not read; null when no name and `{` follow (prose). A
 * name the reply ends after (cut before its arguments) is a truncated call with none.
 */
function readCall(
  source: string,
  nameStart: number,
  bound: number,
  markup: Markup,
  quotes: TokenCursor,
): { name: string; result: FoundCall | string; end: number } | null {
  const head = source.slice(nameStart, Math.min(bound, nameStart + MAX_NAME));
  const brace = head.indexOf('{');
  const name = (brace < 0 ? head : head.slice(0, brace)).trim();
  if (!TOOL_NAME.test(name)) return null;
  if (brace < 0) {
    if (nameStart + head.length < source.length || bound < source.length) return null;
    return { name, result: call(name, {}, '', true, false), end: bound };
  }
  const argsStart = nameStart + brace;
  const args = new GemmaArgs(source, bound, markup.quote, quotes).object(argsStart);
  if (!args.ok) return { name, result: args.error, end: args.end };
  const raw = source.slice(argsStart, args.end);
  return { name, result: call(name, args.value, raw, args.cut, args.cut), end: args.end };
}

function call(name: string, args: object, rawArgs: string, truncated: boolean, repaired: boolean): FoundCall {
  return { name, args, rawArgs, shape: 'gemma', repaired, truncated, doubleEncoded: false, span: [0, 0] };
}

/** Deeper nesting than this is not a tool call's arguments; the cap keeps the recursive reader off the stack limit. */
const MAX_DEPTH = 64;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

type ArgsResult =
  | { ok: true; value: Record<string, unknown>; end: number; cut: boolean }
  | { ok: false; error: string; end: number };

/** Thrown inside the reader only; not an Error subclass so a failed read costs no stack trace. */
class ArgsError {
  constructor(
    readonly message: string,
    readonly at: number,
  ) {}
}

/**
 * Reads Gemma's argument object: `{key:value,…}` with bare (or quoted) keys, string values between the string token,
 * JSON-quoted strings as some outputs write them, numbers, `true`/`false`/`null`, nested objects and lists. Text the
 * reply cut off (`bound` reached inside a value) is closed where it stops, as jsonrepair does for JSON, and flagged
 * `cut`. One pass: string tokens are found with a cursor over the whole reply, so many strings stay linear.
 */
class GemmaArgs {
  private pos = 0;
  private cut = false;

  constructor(
    private readonly src: string,
    private readonly bound: number,
    private readonly quote: string,
    private readonly quotes: TokenCursor,
  ) {}

  object(start: number): ArgsResult {
    this.pos = start;
    try {
      const value = this.readObject(0);
      return { ok: true, value, end: this.pos, cut: this.cut };
    } catch (e) {
      if (e instanceof ArgsError) return { ok: false, error: e.message, end: Math.max(start + 1, e.at) };
      throw e;
    }
  }

  private readObject(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw new ArgsError(`nested deeper than ${MAX_DEPTH}`, this.pos);
    this.pos++; // {
    const out: Record<string, unknown> = {};
    for (;;) {
      if (this.atEnd()) return out;
      const c = this.src[this.pos];
      if (c === '}') {
        this.pos++;
        return out;
      }
      if (c === ',') {
        this.pos++;
        continue;
      }
      const key = this.readKey();
      if (this.atEnd()) return out;
      if (this.src[this.pos] !== ':') throw new ArgsError(`expected ':' after key ${key}`, this.pos);
      this.pos++;
      if (this.atEnd()) {
        setKey(out, key, '');
        return out;
      }
      setKey(out, key, this.readValue(depth));
    }
  }

  private readList(depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw new ArgsError(`nested deeper than ${MAX_DEPTH}`, this.pos);
    this.pos++; // [
    const out: unknown[] = [];
    for (;;) {
      if (this.atEnd()) return out;
      const c = this.src[this.pos];
      if (c === ']') {
        this.pos++;
        return out;
      }
      if (c === ',') {
        this.pos++;
        continue;
      }
      out.push(this.readValue(depth));
    }
  }

  private readValue(depth: number): unknown {
    const c = this.src[this.pos];
    if (this.src.startsWith(this.quote, this.pos)) return this.readQuoted();
    if (c === '"') return this.readJsonString();
    if (c === '{') return this.readObject(depth + 1);
    if (c === '[') return this.readList(depth + 1);
    const start = this.pos;
    while (this.pos < this.bound) {
      const ch = this.src[this.pos];
      if (ch === ',' || ch === '}' || ch === ']') break;
      this.pos++;
    }
    if (this.pos >= this.bound) this.cut = true;
    return scalar(this.src.slice(start, this.pos).trim());
  }

  private readKey(): string {
    if (this.src.startsWith(this.quote, this.pos)) return this.readQuoted();
    if (this.src[this.pos] === '"') return this.readJsonString();
    const start = this.pos;
    while (this.pos < this.bound && this.src[this.pos] !== ':') {
      const ch = this.src[this.pos];
      if (ch === ',' || ch === '}' || ch === '{' || ch === '[' || ch === ']') break;
      this.pos++;
    }
    const key = this.src.slice(start, this.pos).trim();
    if (key === '') throw new ArgsError('a key is missing', this.pos);
    return key;
  }

  /** A string between the family's string tokens; one the reply cut off keeps its text so far. */
  private readQuoted(): string {
    const start = this.pos + this.quote.length;
    const close = this.quotes.next(0, start);
    if (close < 0 || close >= this.bound) {
      this.pos = this.bound;
      this.cut = true;
      return this.src.slice(start, this.bound);
    }
    this.pos = close + this.quote.length;
    return this.src.slice(start, close);
  }

  /** A JSON-quoted string (some outputs quote keys or values as JSON does). */
  private readJsonString(): string {
    const start = this.pos;
    let j = start + 1;
    while (j < this.bound && this.src[j] !== '"') j += this.src[j] === '\\' ? 2 : 1;
    if (j >= this.bound) {
      this.pos = this.bound;
      this.cut = true;
      return this.src.slice(start + 1, this.bound);
    }
    this.pos = j + 1;
    try {
      return JSON.parse(this.src.slice(start, j + 1)) as string;
    } catch {
      return this.src.slice(start + 1, j);
    }
  }

  /** Whitespace skipped; true at `bound` (the reply, or this call's region, ended inside the arguments). */
  private atEnd(): boolean {
    this.pos = skipSpace(this.src, this.pos, this.bound);
    if (this.pos < this.bound) return false;
    this.cut = true;
    return true;
  }
}

/** A bare value: `true`, `false`, `null` (or `none`/`nil`), a number, or else the text itself. */
function scalar(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  const lower = text.toLowerCase();
  if (lower === 'null' || lower === 'none' || lower === 'nil') return null;
  if (NUMBER.test(text)) return Number(text);
  return text;
}
