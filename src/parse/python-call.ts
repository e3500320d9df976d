import { setKey } from '../util/set-key.js';
import { PythonLexer, type Token } from './python-lexer.js';

/** Deeper nesting than this is not a tool call; the cap keeps the recursive parser off the stack limit. */
const MAX_DEPTH = 64;
const CONSTANTS = new Set(['True', 'False', 'None']);

export interface PyCall {
  name: string;
  args: Record<string, unknown>;
  /** The text between the parentheses. */
  rawArgs: string;
  span: [number, number];
  /** Positional arguments (BFCL accepts keyword arguments only); stored in args as `_0`, `_1`, …. */
  positional: number;
  /** Repair mode only: the reply ended inside this call; `args` holds the arguments written before the cut. */
  truncated?: boolean;
}

export type PyParse =
  | {
      ok: true;
      calls: PyCall[];
      end: number;
      /** Repair mode only: the text ended before the list was closed (the calls themselves may be complete). */
      cutShort: boolean;
    }
  | { ok: false; error: string; end: number };

/** A value the reply was cut off before writing (repair mode): the argument or item is left out. */
const MISSING = Symbol('missing');

/** Thrown inside the parser only; not an Error subclass so a failed attempt costs no stack trace capture. */
class PyError {
  constructor(
    readonly message: string,
    readonly at: number,
  ) {}
}

/**
 * Parses `[f(a=1), g.h(b="x")]` (brackets optional) starting at `start`: strings with every quote kind and
 * escape, numbers, True/False/None, lists, tuples (→ arrays), dicts, sets (→ arrays); a nested call or a
 * bare name used as a value becomes its source text. Never throws.
 *
 * `repair` is for a list the reply cut off (a strict parse that failed at the end of the text): everything still
 * open at the end is closed, like jsonrepair does for JSON: a string keeps its text so far, a list or dict its
 * items so far, a call the arguments written before the cut (a `name=` with no value yet is left out). A call cut
 * before its `(` is dropped. Only the end of the text is forgiven: a syntax error before it still fails.
 */
export function parsePythonCalls(text: string, start = 0, repair = false): PyParse {
  const lx = new PythonLexer(text, start);
  lx.lenientEof = repair;
  try {
    const calls: PyCall[] = [];
    const bracketed = isPunct(lx.peek(), '[');
    if (bracketed) lx.next();
    for (;;) {
      if (bracketed && isPunct(lx.peek(), ']') && calls.length > 0) break;
      if (cutHere(lx) && calls.length > 0) break;
      const call = parseCall(lx);
      if (!call) break;
      calls.push(call);
      if (!isPunct(lx.peek(), ',')) break;
      lx.next();
    }
    if (calls.length === 0) throw new PyError('the text ends before the first call', lx.pos);
    // Without brackets the list ends at the last `)`; lx.pos may already be past a peeked token (`<end_of_turn>`).
    let end = calls[calls.length - 1]?.span[1] ?? lx.pos;
    if (bracketed) end = closeOrCut(lx, ']') ?? text.length;
    return { ok: true, calls, end, cutShort: lx.cutShort };
  } catch (e) {
    if (e instanceof PyError) return { ok: false, error: e.message, end: Math.max(e.at, lx.pos) };
    return { ok: false, error: e instanceof Error ? e.message : String(e), end: lx.pos };
  }
}

function isPunct(t: Token, p: string): boolean {
  return t.type === 'punct' && t.value === p;
}

function expect(lx: PythonLexer, p: string): Token {
  const t = lx.next();
  if (!isPunct(t, p)) throw new PyError(`expected '${p}' ${describe(t)}`, t.start);
  return t;
}

/** Repair mode at the end of the text: what is open is closed here (and the parse records that it was cut). */
function cutHere(lx: PythonLexer): boolean {
  if (!lx.lenientEof || lx.peek().type !== 'eof') return false;
  lx.cutShort = true;
  return true;
}

/** The closing punctuation `p` (its end offset), or undefined when the text was cut before it (repair mode). */
function closeOrCut(lx: PythonLexer, p: string): number | undefined {
  if (cutHere(lx)) return undefined;
  return expect(lx, p).end;
}

function describe(t: Token): string {
  switch (t.type) {
    case 'eof':
      return 'at end of text';
    case 'error':
      return `(${t.message}) at ${t.start}`;
    default:
      return `but found ${JSON.stringify(t.type === 'number' ? String(t.value) : t.value)} at ${t.start}`;
  }
}

function dottedName(lx: PythonLexer): { name: string; start: number } | null {
  if (cutHere(lx)) return null;
  const first = lx.next();
  if (first.type !== 'name') throw new PyError(`expected a function name ${describe(first)}`, first.start);
  let name = first.value;
  while (isPunct(lx.peek(), '.')) {
    lx.next();
    if (cutHere(lx)) return null;
    const part = lx.next();
    if (part.type !== 'name') throw new PyError(`expected a name after '.' ${describe(part)}`, part.start);
    name += `.${part.value}`;
  }
  return { name, start: first.start };
}

/** One call; null in repair mode when the text ends before the call's `(`. */
function parseCall(lx: PythonLexer): PyCall | null {
  const head = dottedName(lx);
  if (!head || cutHere(lx)) return null;
  const { name, start } = head;
  const open = expect(lx, '(');
  const args: Record<string, unknown> = {};
  let positional = 0;
  while (!isPunct(lx.peek(), ')') && !cutHere(lx)) {
    const t = lx.peek();
    if (t.type === 'name' && !CONSTANTS.has(t.value) && lx.equalsSignAt(t.end)) {
      // keyword argument (a bare name not followed by `=` is a value)
      lx.next();
      lx.next();
      const value = parseValue(lx, 1);
      if (value !== MISSING) setKey(args, t.value, value);
    } else if (lx.lenientEof && t.type === 'name' && lx.text.slice(t.end).trim() === '') {
      // cut right after a name: the start of `name=…`, not a value
      lx.next();
    } else {
      const value = parseValue(lx, 1);
      if (value !== MISSING) args[`_${positional++}`] = value;
    }
    if (isPunct(lx.peek(), ',')) lx.next();
    else if (!isPunct(lx.peek(), ')') && !cutHere(lx))
      throw new PyError(`expected ',' or ')' ${describe(lx.peek())}`, lx.peek().start);
  }
  if (cutHere(lx)) {
    const end = lx.text.length;
    return { name, args, rawArgs: lx.text.slice(open.end).trimEnd(), span: [start, end], positional, truncated: true };
  }
  const close = expect(lx, ')');
  return { name, args, rawArgs: lx.text.slice(open.end, close.start), span: [start, close.end], positional };
}

function parseValue(lx: PythonLexer, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new PyError('nesting too deep', lx.pos);
  if (cutHere(lx)) return MISSING;
  const t = lx.next();
  switch (t.type) {
    case 'string': {
      let value = t.value;
      for (let n = lx.peek(); n.type === 'string'; n = lx.peek()) value += (lx.next() as { value: string }).value;
      return value;
    }
    case 'number':
      return t.value;
    case 'name':
      return nameValue(lx, t, depth);
    case 'punct':
      return punctValue(lx, t.value, depth, t.start);
    default:
      throw new PyError(`expected a value ${describe(t)}`, t.start);
  }
}

function nameValue(lx: PythonLexer, t: Token & { type: 'name' }, depth: number): unknown {
  if (t.value === 'True') return true;
  if (t.value === 'False') return false;
  if (t.value === 'None') return null;
  let end = t.end;
  while (isPunct(lx.peek(), '.')) {
    lx.next();
    if (cutHere(lx)) return lx.text.slice(t.start, end);
    const part = lx.next();
    if (part.type !== 'name') throw new PyError(`expected a name after '.' ${describe(part)}`, part.start);
    end = part.end;
  }
  if (isPunct(lx.peek(), '(')) {
    // a nested call used as a value (e.g. `date=datetime.date(2024, 1, 1)`): keep its source text
    lx.next();
    while (!isPunct(lx.peek(), ')') && !cutHere(lx)) {
      const t = lx.peek();
      if (t.type === 'name' && lx.equalsSignAt(t.end)) {
        lx.next();
        lx.next();
      }
      parseValue(lx, depth + 1);
      if (isPunct(lx.peek(), ',')) lx.next();
      else if (!isPunct(lx.peek(), ')') && !cutHere(lx))
        throw new PyError(`expected ',' or ')' ${describe(lx.peek())}`, lx.peek().start);
    }
    end = closeOrCut(lx, ')') ?? lx.text.trimEnd().length;
  }
  return lx.text.slice(t.start, end);
}

function punctValue(lx: PythonLexer, p: string, depth: number, at: number): unknown {
  if (p === '-' || p === '+') {
    if (cutHere(lx)) return MISSING;
    const n = lx.next();
    if (n.type !== 'number') throw new PyError(`expected a number after '${p}' ${describe(n)}`, n.start);
    return p === '-' ? -n.value : n.value;
  }
  if (p === '[') return sequence(lx, ']', depth);
  if (p === '(') {
    const items: unknown[] = [];
    let comma = false;
    while (!isPunct(lx.peek(), ')')) {
      const item = parseValue(lx, depth + 1);
      if (item === MISSING) break;
      items.push(item);
      if (!isPunct(lx.peek(), ',')) break;
      lx.next();
      comma = true;
    }
    closeOrCut(lx, ')');
    return items.length === 1 && !comma ? items[0] : items;
  }
  if (p === '{') return dictOrSet(lx, depth);
  throw new PyError(`unexpected '${p}'`, at);
}

function sequence(lx: PythonLexer, close: string, depth: number): unknown[] {
  const items: unknown[] = [];
  while (!isPunct(lx.peek(), close)) {
    const item = parseValue(lx, depth + 1);
    if (item === MISSING) break;
    items.push(item);
    if (!isPunct(lx.peek(), ',')) break;
    lx.next();
  }
  closeOrCut(lx, close);
  return items;
}

function dictOrSet(lx: PythonLexer, depth: number): unknown {
  if (isPunct(lx.peek(), '}')) {
    lx.next();
    return {};
  }
  const first = parseValue(lx, depth + 1);
  if (first === MISSING) return {};
  if (!isPunct(lx.peek(), ':')) {
    const items = [first];
    while (isPunct(lx.peek(), ',')) {
      lx.next();
      if (isPunct(lx.peek(), '}')) break;
      const item = parseValue(lx, depth + 1);
      if (item === MISSING) break;
      items.push(item);
    }
    closeOrCut(lx, '}');
    return items;
  }
  const out: Record<string, unknown> = {};
  let key = first;
  for (;;) {
    if (closeOrCut(lx, ':') === undefined) break;
    const value = parseValue(lx, depth + 1);
    if (value === MISSING) break;
    out[typeof key === 'string' ? key : JSON.stringify(key)] = value;
    if (!isPunct(lx.peek(), ',')) break;
    lx.next();
    if (isPunct(lx.peek(), '}')) break;
    key = parseValue(lx, depth + 1);
    if (key === MISSING) break;
  }
  closeOrCut(lx, '}');
  return out;
}
