/**
 * A small lexer for the Python literal subset models use in BFCL-style calls: names, numbers, strings
 * (every prefix and quote kind, with escapes) and punctuation. Hand-written: there is no maintained JS
 * library that parses Python call expressions, and `ast.parse` is what BFCL runs in Python.
 * Lazy (one token at a time) so a reply of prose costs nothing past the first token.
 */
export type Token =
  | { type: 'name'; value: string; start: number; end: number }
  | { type: 'number'; value: number; isFloat: boolean; start: number; end: number }
  | { type: 'string'; value: string; start: number; end: number }
  | { type: 'punct'; value: string; start: number; end: number }
  | { type: 'eof'; start: number; end: number }
  | { type: 'error'; message: string; start: number; end: number };

const PUNCT = new Set(['(', ')', '[', ']', '{', '}', ',', '=', ':', '.', '-', '+', '*']);
const STRING_PREFIX = /^(?:r|u|b|f|br|rb|fr|rf)$/i;
const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};

function isNameStart(ch: string): boolean {
  return /[\p{L}_]/u.test(ch);
}
function isNameChar(ch: string): boolean {
  return /[\p{L}\p{N}_]/u.test(ch);
}

export class PythonLexer {
  pos: number;
  private peeked: Token | null = null;

  constructor(
    readonly text: string,
    start = 0,
  ) {
    this.pos = start;
  }

  peek(): Token {
    this.peeked ??= this.lex();
    return this.peeked;
  }

  /** A checkpoint for one-token lookahead beyond `peek()`. */
  save(): { pos: number; peeked: Token | null } {
    return { pos: this.pos, peeked: this.peeked };
  }

  restore(state: { pos: number; peeked: Token | null }): void {
    this.pos = state.pos;
    this.peeked = state.peeked;
  }

  next(): Token {
    const t = this.peek();
    this.peeked = null;
    return t;
  }

  private lex(): Token {
    const s = this.text;
    while (this.pos < s.length && /\s/.test(s[this.pos] ?? '')) this.pos++;
    const start = this.pos;
    const ch = s[start];
    if (ch === undefined) return { type: 'eof', start, end: start };
    if (ch === '"' || ch === "'") return this.lexString(start, '');
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(s[start + 1] ?? ''))) return this.lexNumber(start);
    if (isNameStart(ch)) {
      let i = start + 1;
      while (i < s.length && isNameChar(s[i] ?? '')) i++;
      const word = s.slice(start, i);
      const q = s[i];
      if ((q === '"' || q === "'") && STRING_PREFIX.test(word)) {
        this.pos = i;
        return this.lexString(start, word.toLowerCase());
      }
      this.pos = i;
      return { type: 'name', value: word, start, end: i };
    }
    if (PUNCT.has(ch)) {
      this.pos = start + 1;
      return { type: 'punct', value: ch, start, end: start + 1 };
    }
    this.pos = start + 1;
    return { type: 'error', message: `unexpected character ${JSON.stringify(ch)}`, start, end: start + 1 };
  }

  private lexNumber(start: number): Token {
    const s = this.text;
    const rest = s.slice(start, start + 400);
    const radix = /^0([xob])([0-9a-f_]+)/i.exec(rest);
    if (radix?.[1] && radix[2]) {
      const base = { x: 16, o: 8, b: 2 }[radix[1].toLowerCase() as 'x' | 'o' | 'b'];
      this.pos = start + radix[0].length;
      return {
        type: 'number',
        value: Number.parseInt(radix[2].replaceAll('_', ''), base),
        isFloat: false,
        start,
        end: this.pos,
      };
    }
    const m = /^(?:[0-9][0-9_]*)?(\.[0-9_]*)?([eE][+-]?[0-9_]+)?/.exec(rest);
    const lit = m?.[0] ?? '';
    this.pos = start + lit.length;
    if (/[jJ]/.test(s[this.pos] ?? '')) {
      this.pos++;
      return { type: 'error', message: 'complex numbers are not supported', start, end: this.pos };
    }
    const isFloat = m?.[1] !== undefined || m?.[2] !== undefined;
    return { type: 'number', value: Number(lit.replaceAll('_', '')), isFloat, start, end: this.pos };
  }

  private lexString(start: number, prefix: string): Token {
    const s = this.text;
    const raw = prefix.includes('r');
    const q = s[this.pos] as string;
    const triple = s.startsWith(q.repeat(3), this.pos);
    const close = triple ? q.repeat(3) : q;
    let i = this.pos + close.length;
    let out = '';
    while (i < s.length) {
      const ch = s[i] as string;
      if (s.startsWith(close, i)) {
        this.pos = i + close.length;
        return { type: 'string', value: out, start, end: this.pos };
      }
      if (ch === '\n' && !triple) break;
      if (ch === '\\' && i + 1 < s.length) {
        if (raw) {
          out += ch + s[i + 1];
          i += 2;
          continue;
        }
        const [text, used] = this.escape(i + 1);
        out += text;
        i += 1 + used;
        continue;
      }
      out += ch;
      i++;
    }
    this.pos = i;
    return { type: 'error', message: 'unterminated string', start, end: i };
  }

  /** Decodes the escape after a backslash at `i`; returns the text and how many characters it used. */
  private escape(i: number): [string, number] {
    const s = this.text;
    const e = s[i] as string;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) return [simple, 1];
    const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hexLen > 0) {
      const hex = s.slice(i + 1, i + 1 + hexLen);
      if (hex.length === hexLen && /^[0-9a-f]+$/i.test(hex)) {
        const code = Number.parseInt(hex, 16);
        if (code <= 0x10ffff) return [String.fromCodePoint(code), 1 + hexLen];
      }
      return [`\\${e}`, 1];
    }
    const oct = /^[0-7]{1,3}/.exec(s.slice(i, i + 3));
    if (oct) return [String.fromCharCode(Number.parseInt(oct[0], 8)), oct[0].length];
    // Python keeps unknown escapes (and \N{…}) verbatim.
    return [`\\${e}`, 1];
  }
}
