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

const NAME_START = /[\p{L}_]/u;
const NAME_CHAR = /[\p{L}\p{N}_]/u;
const SPACE = /\s/;

// Char-code tests with an ASCII fast path (a regex per character was most of the lexer's time); non-ASCII
// characters still go through the same Unicode regexes, so what counts as a name or a space is unchanged.
function isNameStart(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
  return NAME_START.test(s[i] as string);
}
function isNameChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  return NAME_CHAR.test(s[i] as string);
}
function isSpace(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return SPACE.test(s[i] as string);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
/** `[0-9_]` */
function isDigitOr_(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 95;
}

export class PythonLexer {
  pos: number;
  private peeked: Token | null = null;
  /**
   * Repair mode for a reply cut off mid-call: a string still open at the end of the text is a string token (its
   * text so far) instead of an error, and the parser closes whatever is open at the end. `cutShort` records that
   * something was closed that the text did not close.
   */
  lenientEof = false;
  cutShort = false;

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

  /**
   * Whether the token after the one ending at `end` is `=` (the next character after whitespace is `=`, which
   * always lexes as that punctuation): two-token lookahead without lexing or a checkpoint.
   */
  equalsSignAt(end: number): boolean {
    const s = this.text;
    let i = end;
    while (i < s.length && isSpace(s, i)) i++;
    return s.charCodeAt(i) === 61;
  }

  next(): Token {
    const t = this.peek();
    this.peeked = null;
    return t;
  }

  private lex(): Token {
    const s = this.text;
    while (this.pos < s.length && isSpace(s, this.pos)) this.pos++;
    const start = this.pos;
    const ch = s[start];
    if (ch === undefined) return { type: 'eof', start, end: start };
    if (ch === '"' || ch === "'") return this.lexString(start, '');
    const c = s.charCodeAt(start);
    if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(start + 1)))) return this.lexNumber(start);
    if (isNameStart(s, start)) {
      let i = start + 1;
      while (i < s.length && isNameChar(s, i)) i++;
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
    const next = s.charCodeAt(start + 1) | 0x20;
    if (s.charCodeAt(start) === 48 && (next === 120 || next === 111 || next === 98)) {
      const radix = /^0([xob])([0-9a-f_]+)/i.exec(s.slice(start, start + 400));
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
    }
    // /^(?:[0-9][0-9_]*)?(\.[0-9_]*)?([eE][+-]?[0-9_]+)?/ over at most 400 characters, scanned by hand
    const limit = Math.min(s.length, start + 400);
    let i = start;
    if (i < limit && isDigit(s.charCodeAt(i))) {
      i++;
      while (i < limit && isDigitOr_(s.charCodeAt(i))) i++;
    }
    let isFloat = false;
    if (i < limit && s.charCodeAt(i) === 46) {
      isFloat = true;
      i++;
      while (i < limit && isDigitOr_(s.charCodeAt(i))) i++;
    }
    if (i < limit && (s.charCodeAt(i) | 0x20) === 101) {
      let j = i + 1;
      const sign = s.charCodeAt(j);
      if (j < limit && (sign === 43 || sign === 45)) j++;
      if (j < limit && isDigitOr_(s.charCodeAt(j))) {
        while (j < limit && isDigitOr_(s.charCodeAt(j))) j++;
        i = j;
        isFloat = true;
      }
    }
    const lit = s.slice(start, i);
    this.pos = i;
    if ((s.charCodeAt(this.pos) | 0x20) === 106) {
      this.pos++;
      return { type: 'error', message: 'complex numbers are not supported', start, end: this.pos };
    }
    return {
      type: 'number',
      value: Number(lit.includes('_') ? lit.replaceAll('_', '') : lit),
      isFloat,
      start,
      end: this.pos,
    };
  }

  private lexString(start: number, prefix: string): Token {
    const s = this.text;
    const raw = prefix.includes('r');
    const qc = s.charCodeAt(this.pos);
    const triple = s.charCodeAt(this.pos + 1) === qc && s.charCodeAt(this.pos + 2) === qc;
    const closeLen = triple ? 3 : 1;
    let i = this.pos + closeLen;
    let out = '';
    // text is copied in runs between escapes, not character by character
    let run = i;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === qc && (!triple || (s.charCodeAt(i + 1) === qc && s.charCodeAt(i + 2) === qc))) {
        this.pos = i + closeLen;
        return { type: 'string', value: out + s.slice(run, i), start, end: this.pos };
      }
      if (c === 10 && !triple) break;
      if (c === 92 && i + 1 < s.length) {
        out += s.slice(run, i);
        if (raw) {
          out += s.slice(i, i + 2);
          i += 2;
        } else {
          const [text, used] = this.escape(i + 1);
          out += text;
          i += 1 + used;
        }
        run = i;
        continue;
      }
      i++;
    }
    this.pos = i;
    if (this.lenientEof && i >= s.length) {
      this.cutShort = true;
      return { type: 'string', value: out + s.slice(run, i), start, end: i };
    }
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
