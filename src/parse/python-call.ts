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
}

export type PyParse = { ok: true; calls: PyCall[]; end: number } | { ok: false; error: string; end: number };

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
 */
export function parsePythonCalls(text: string, start = 0): PyParse {
  const lx = new PythonLexer(text, start);
  try {
    const calls: PyCall[] = [];
    const bracketed = isPunct(lx.peek(), '[');
    if (bracketed) lx.next();
    for (;;) {
      if (bracketed && isPunct(lx.peek(), ']') && calls.length > 0) break;
      calls.push(parseCall(lx));
      if (!isPunct(lx.peek(), ',')) break;
      lx.next();
    }
    // Without brackets the list ends at the last `)`; lx.pos may already be past a peeked token (`<end_of_turn>`).
    const end = bracketed ? expect(lx, ']').end : (calls[calls.length - 1]?.span[1] ?? lx.pos);
    return { ok: true, calls, end };
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

function dottedName(lx: PythonLexer): { name: string; start: number } {
  const first = lx.next();
  if (first.type !== 'name') throw new PyError(`expected a function name ${describe(first)}`, first.start);
  let name = first.value;
  while (isPunct(lx.peek(), '.')) {
    lx.next();
    const part = lx.next();
    if (part.type !== 'name') throw new PyError(`expected a name after '.' ${describe(part)}`, part.start);
    name += `.${part.value}`;
  }
  return { name, start: first.start };
}

function parseCall(lx: PythonLexer): PyCall {
  const { name, start } = dottedName(lx);
  const open = expect(lx, '(');
  const args: Record<string, unknown> = {};
  let positional = 0;
  while (!isPunct(lx.peek(), ')')) {
    const t = lx.peek();
    if (t.type === 'name' && !CONSTANTS.has(t.value) && lx.equalsSignAt(t.end)) {
      // keyword argument (a bare name not followed by `=` is a value)
      lx.next();
      lx.next();
      args[t.value] = parseValue(lx, 1);
    } else {
      args[`_${positional++}`] = parseValue(lx, 1);
    }
    if (isPunct(lx.peek(), ',')) lx.next();
    else if (!isPunct(lx.peek(), ')')) throw new PyError(`expected ',' or ')' ${describe(lx.peek())}`, lx.peek().start);
  }
  const close = expect(lx, ')');
  return { name, args, rawArgs: lx.text.slice(open.end, close.start), span: [start, close.end], positional };
}

function parseValue(lx: PythonLexer, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new PyError('nesting too deep', lx.pos);
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
    const part = lx.next();
    if (part.type !== 'name') throw new PyError(`expected a name after '.' ${describe(part)}`, part.start);
    end = part.end;
  }
  if (isPunct(lx.peek(), '(')) {
    // a nested call used as a value (e.g. `date=datetime.date(2024, 1, 1)`): keep its source text
    lx.next();
    while (!isPunct(lx.peek(), ')')) {
      const t = lx.peek();
      if (t.type === 'name' && lx.equalsSignAt(t.end)) {
        lx.next();
        lx.next();
      }
      parseValue(lx, depth + 1);
      if (isPunct(lx.peek(), ',')) lx.next();
      else if (!isPunct(lx.peek(), ')'))
        throw new PyError(`expected ',' or ')' ${describe(lx.peek())}`, lx.peek().start);
    }
    end = expect(lx, ')').end;
  }
  return lx.text.slice(t.start, end);
}

function punctValue(lx: PythonLexer, p: string, depth: number, at: number): unknown {
  if (p === '-' || p === '+') {
    const n = lx.next();
    if (n.type !== 'number') throw new PyError(`expected a number after '${p}' ${describe(n)}`, n.start);
    return p === '-' ? -n.value : n.value;
  }
  if (p === '[') return sequence(lx, ']', depth);
  if (p === '(') {
    const items: unknown[] = [];
    let comma = false;
    while (!isPunct(lx.peek(), ')')) {
      items.push(parseValue(lx, depth + 1));
      if (!isPunct(lx.peek(), ',')) break;
      lx.next();
      comma = true;
    }
    expect(lx, ')');
    return items.length === 1 && !comma ? items[0] : items;
  }
  if (p === '{') return dictOrSet(lx, depth);
  throw new PyError(`unexpected '${p}'`, at);
}

function sequence(lx: PythonLexer, close: string, depth: number): unknown[] {
  const items: unknown[] = [];
  while (!isPunct(lx.peek(), close)) {
    items.push(parseValue(lx, depth + 1));
    if (!isPunct(lx.peek(), ',')) break;
    lx.next();
  }
  expect(lx, close);
  return items;
}

function dictOrSet(lx: PythonLexer, depth: number): unknown {
  if (isPunct(lx.peek(), '}')) {
    lx.next();
    return {};
  }
  const first = parseValue(lx, depth + 1);
  if (!isPunct(lx.peek(), ':')) {
    const items = [first];
    while (isPunct(lx.peek(), ',')) {
      lx.next();
      if (isPunct(lx.peek(), '}')) break;
      items.push(parseValue(lx, depth + 1));
    }
    expect(lx, '}');
    return items;
  }
  const out: Record<string, unknown> = {};
  let key = first;
  for (;;) {
    expect(lx, ':');
    out[typeof key === 'string' ? key : JSON.stringify(key)] = parseValue(lx, depth + 1);
    if (!isPunct(lx.peek(), ',')) break;
    lx.next();
    if (isPunct(lx.peek(), '}')) break;
    key = parseValue(lx, depth + 1);
  }
  expect(lx, '}');
  return out;
}
