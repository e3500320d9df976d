import { MAX_FILE_DEPTH } from './nesting-limit.js';

/**
 * A parser for the plain subset of YAML that generated and hand-written suites mostly are: block mappings and
 * sequences, one-line scalars (plain, 'single' or "double" quoted) and one-line flow collections, comments. It is
 * several times faster than a full YAML parser because it does nothing else: anything outside the subset (block
 * scalars `|` `>`, a scalar or flow collection over several lines, anchors, aliases, tags, `?` keys, tabs, document
 * markers, a number written any way but plain decimal, a duplicate key) gives {@link NOT_PLAIN}, and the caller uses
 * a full parser. Where it gives data, it is the data the YAML 1.2 core schema gives.
 */

export const NOT_PLAIN: unique symbol = Symbol('not plain YAML');

/**
 * Collections nested deeper than this are left to the other parsers (js-yaml bounds its own depth, the located parser
 * is guarded by a scan of the text: src/config/nesting-limit.ts). This parser recurses per level, and running out of
 * stack in the middle of compiling a regular expression kills the process (V8 reports it as out of memory).
 */
const MAX_DEPTH = MAX_FILE_DEPTH;

class NotPlain {}
const STOP = new NotPlain();

function stop(): never {
  throw STOP;
}

/**
 * The non-blank, non-comment lines, three numbers each: indentation, then the offsets of the content (from its first
 * non-space character to its end, no \r). Numbers in one array rather than an object per line: less garbage.
 */
class Lines {
  data = new Int32Array(3 * 1024);
  length = 0;
  push(indent: number, start: number, end: number): void {
    if (3 * this.length + 3 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const k = 3 * this.length++;
    this.data[k] = indent;
    this.data[k + 1] = start;
    this.data[k + 2] = end;
  }
  indent(i: number): number {
    return this.data[3 * i]!;
  }
  start(i: number): number {
    return this.data[3 * i + 1]!;
  }
  end(i: number): number {
    return this.data[3 * i + 2]!;
  }
  /** A compact item (`- key: v`, `- - x`): the line read again as starting at `start`, indented to `indent`. */
  moveStart(i: number, indent: number, start: number): void {
    this.data[3 * i] = indent;
    this.data[3 * i + 1] = start;
  }
}

/** Parses `text` (a whole document, or a run of sequence items) in the plain subset, or gives NOT_PLAIN. */
export function parsePlainYaml(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) return NOT_PLAIN;
  try {
    const lines = splitLines(text);
    if (lines.length === 0) return NOT_PLAIN;
    const p = new PlainParser(text, lines);
    const value = p.node(0, lines.indent(0));
    if (p.next !== lines.length) return NOT_PLAIN;
    return value;
  } catch (e) {
    if (e === STOP) return NOT_PLAIN;
    throw e;
  }
}

function splitLines(text: string): Lines {
  const lines = new Lines();
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = n;
    let i = pos;
    while (i < nl && text.charCodeAt(i) === 32) i++;
    let end = nl;
    if (end > i && text.charCodeAt(end - 1) === 13) end--;
    const c = text.charCodeAt(i);
    if (i < end && c !== 35 /* # */) {
      if (c === 9 /* tab */) stop();
      lines.push(i - pos, i, end);
    }
    pos = nl + 1;
  }
  return lines;
}

const isSpace = (c: number) => c === 32 || c === 9;

class PlainParser {
  next = 0;
  /** Block collections open around the one being read. */
  private depth = 0;
  constructor(
    private readonly text: string,
    private readonly lines: Lines,
  ) {}

  /** The block node starting at line i (a sequence or a mapping) whose lines have this indentation. */
  node(i: number, indent: number): unknown {
    if (this.lines.indent(i) !== indent) stop();
    if (this.isItem(this.lines.start(i), this.lines.end(i))) return this.sequence(i, indent);
    return this.mapping(i, indent);
  }

  private isItem(start: number, end: number): boolean {
    if (this.text.charCodeAt(start) !== 45 /* - */) return false;
    return start + 1 === end || isSpace(this.text.charCodeAt(start + 1));
  }

  private sequence(i: number, indent: number): unknown[] {
    if (++this.depth > MAX_DEPTH) stop();
    const items: unknown[] = [];
    const { lines, text } = this;
    while (i < lines.length) {
      const lineIndent = lines.indent(i);
      const start = lines.start(i);
      const end = lines.end(i);
      if (lineIndent < indent) break;
      if (lineIndent > indent || !this.isItem(start, end)) stop();
      let r = start + 1;
      while (r < end && text.charCodeAt(r) === 32) r++;
      if (r === end) {
        // `-` alone: the item is the block below, or null.
        if (i + 1 < lines.length && lines.indent(i + 1) > indent) {
          items.push(this.node(i + 1, lines.indent(i + 1)));
          i = this.next;
        } else {
          items.push(null);
          i++;
        }
        continue;
      }
      const col = lineIndent + (r - start);
      if (this.isItem(r, end)) {
        // `- - x`: a sequence whose first line starts after the dash.
        lines.moveStart(i, col, r);
        items.push(this.sequence(i, col));
        i = this.next;
        continue;
      }
      if (this.keyEnd(r, end) >= 0) {
        // `- key: value`: a mapping whose first line starts after the dash.
        lines.moveStart(i, col, r);
        items.push(this.mapping(i, col));
        i = this.next;
        continue;
      }
      items.push(this.inline(r, end));
      i++;
      if (i < lines.length && lines.indent(i) > indent) stop(); // a scalar over several lines
    }
    this.next = i;
    this.depth--;
    return items;
  }

  private mapping(i: number, indent: number): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) stop();
    const map: Record<string, unknown> = {};
    const { lines, text } = this;
    while (i < lines.length) {
      const lineIndent = lines.indent(i);
      if (lineIndent < indent) break;
      if (lineIndent > indent) stop();
      const start = lines.start(i);
      const end = lines.end(i);
      const colon = this.keyEnd(start, end);
      // The yaml package refuses an implicit key longer than 1,024 characters.
      if (colon < 0 || colon - start > 1024) stop();
      const key = this.key(start, colon);
      if (Object.hasOwn(map, key) || key === '__proto__') stop();
      let r = colon + 1;
      while (r < end && text.charCodeAt(r) === 32) r++;
      if (r === end || text.charCodeAt(r) === 35 /* # */) {
        const below = i + 1 < lines.length ? lines.indent(i + 1) : -1;
        if (below > indent) {
          map[key] = this.node(i + 1, below);
          i = this.next;
        } else if (below === indent && this.isItem(lines.start(i + 1), lines.end(i + 1))) {
          map[key] = this.sequence(i + 1, indent);
          i = this.next;
        } else {
          map[key] = null;
          i++;
        }
        continue;
      }
      map[key] = this.inline(r, end);
      i++;
      if (i < lines.length && lines.indent(i) > indent) stop();
    }
    this.next = i;
    this.depth--;
    return map;
  }

  /** The offset of the `:` that ends a block key starting at `start` (plain or quoted), or -1. */
  private keyEnd(start: number, end: number): number {
    const { text } = this;
    const c = text.charCodeAt(start);
    if (c === 34 || c === 39) {
      const close = quotedEnd(text, start, end);
      if (close < 0) return -1;
      let k = close;
      while (k < end && text.charCodeAt(k) === 32) k++;
      if (text.charCodeAt(k) === 58 && (k + 1 === end || isSpace(text.charCodeAt(k + 1)))) return k;
      return -1;
    }
    if (c === 91 || c === 123) return -1; // a flow collection
    for (let k = start; k < end; k++) {
      const ch = text.charCodeAt(k);
      if (ch === 58 /* : */ && (k + 1 === end || isSpace(text.charCodeAt(k + 1)))) return k;
      if (ch === 35 && k > start && isSpace(text.charCodeAt(k - 1))) return -1; // a comment
    }
    return -1;
  }

  private key(start: number, colon: number): string {
    const { text } = this;
    const c = text.charCodeAt(start);
    if (c === 34 || c === 39) {
      const close = quotedEnd(text, start, colon);
      return quoted(text, start, close);
    }
    let e = colon;
    while (e > start && text.charCodeAt(e - 1) === 32) e--;
    const raw = text.slice(start, e);
    const value = plainScalar(raw);
    if (typeof value === 'string') return value;
    // A number key is the number's string (as the core schema gives it); only plain decimal integers are safe here.
    if (typeof value === 'number' && /^(?:0|-?[1-9][0-9]*)$/.test(raw)) return raw;
    return stop();
  }

  /** A value on one line from `start` to `end`: a quoted or plain scalar or a flow collection, then a comment. */
  private inline(start: number, end: number): unknown {
    const { text } = this;
    const c = text.charCodeAt(start);
    if (c === 91 || c === 123) {
      const flow = new FlowParser(text, start, end);
      const value = flow.value();
      flow.rest();
      return value;
    }
    if (c === 34 || c === 39) {
      const close = quotedEnd(text, start, end);
      if (close < 0) stop();
      restIsComment(text, close, end);
      return quoted(text, start, close);
    }
    let e = end;
    for (let k = start + 1; k < end; k++) {
      if (text.charCodeAt(k) === 35 && isSpace(text.charCodeAt(k - 1))) {
        e = k;
        break;
      }
    }
    while (e > start && isSpace(text.charCodeAt(e - 1))) e--;
    const raw = text.slice(start, e);
    if (raw.includes(': ') || raw.endsWith(':')) stop();
    return plainScalar(raw);
  }
}

/** Only spaces and a comment may follow a value on its line. */
function restIsComment(text: string, from: number, end: number): void {
  let k = from;
  while (k < end && isSpace(text.charCodeAt(k))) k++;
  if (k < end && (text.charCodeAt(k) !== 35 || k === from)) stop();
}

/** The offset just past the closing quote of the quoted scalar at `start`, or -1 if it does not close on the line. */
function quotedEnd(text: string, start: number, end: number): number {
  const q = text.charCodeAt(start);
  for (let k = start + 1; k < end; k++) {
    const ch = text.charCodeAt(k);
    if (q === 34 && ch === 92 /* \ */) {
      k++;
      continue;
    }
    if (ch === q) {
      if (q === 39 && text.charCodeAt(k + 1) === 39) {
        k++;
        continue;
      }
      return k + 1;
    }
  }
  return -1;
}

const ESCAPES: Record<string, string> = {
  '\\': '\\',
  '"': '"',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '0': '\0',
};

/** The value of the quoted scalar from `start` to `close` (just past its closing quote). */
function quoted(text: string, start: number, close: number): string {
  const body = text.slice(start + 1, close - 1);
  if (text.charCodeAt(start) === 39) return body.replaceAll("''", "'");
  if (!body.includes('\\')) return body;
  let out = '';
  for (let k = 0; k < body.length; k++) {
    const ch = body[k]!;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = body[++k];
    if (e === 'u') {
      const hex = body.slice(k + 1, k + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) stop();
      out += String.fromCharCode(Number.parseInt(hex, 16));
      k += 4;
      continue;
    }
    const r = e === undefined ? undefined : ESCAPES[e];
    if (r === undefined) stop();
    out += r;
  }
  return out;
}

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const BOOLS = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);
/** Characters a plain scalar may not start with (YAML indicators), and those that start a number-like word. */
const INDICATORS = new Set([
  '-',
  '?',
  ':',
  ',',
  '[',
  ']',
  '{',
  '}',
  '#',
  '&',
  '*',
  '!',
  '|',
  '>',
  "'",
  '"',
  '%',
  '@',
  '`',
]);

/** A plain scalar by the core schema: null, a boolean, a plain decimal number, or a string; else not plain. */
function plainScalar(raw: string): unknown {
  if (NULLS.has(raw)) return null;
  const b = BOOLS.get(raw);
  if (b !== undefined) return b;
  const c = raw[0]!;
  const code = raw.charCodeAt(0);
  if ((code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46) {
    if (/^(?:0|-?[1-9][0-9]{0,14})$/.test(raw)) return Number(raw);
    if (/^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/.test(raw)) return Number(raw);
    // Other numbers (0x1F, 1e3, .5, 012, +1, .inf) and words that start like one (-foo, 1.2.3): a full parser decides.
    return stop();
  }
  if (INDICATORS.has(c)) stop();
  return raw;
}

/** A flow collection on one line: `[a, "b", {c: 1}]`. */
class FlowParser {
  /** Flow collections open around the one being read. */
  private depth = 0;
  constructor(
    private readonly text: string,
    private pos: number,
    private readonly end: number,
  ) {}

  private space(): void {
    while (this.pos < this.end && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  value(): unknown {
    this.space();
    const c = this.text.charCodeAt(this.pos);
    if (c === 91) return this.seq();
    if (c === 123) return this.map();
    if (c === 34 || c === 39) {
      const close = quotedEnd(this.text, this.pos, this.end);
      if (close < 0) stop();
      const v = quoted(this.text, this.pos, close);
      this.pos = close;
      return v;
    }
    return plainScalar(this.plain());
  }

  /** A plain scalar in flow context: up to `,`, a bracket or brace, or `: `. */
  private plain(): string {
    const { text } = this;
    const from = this.pos;
    while (this.pos < this.end) {
      const ch = text.charCodeAt(this.pos);
      if (ch === 44 || ch === 91 || ch === 93 || ch === 123 || ch === 125) break;
      if (ch === 58 && (this.pos + 1 === this.end || /[\s,[\]{}]/.test(text[this.pos + 1]!))) break;
      if (ch === 35 && isSpace(text.charCodeAt(this.pos - 1))) stop();
      this.pos++;
    }
    const raw = text.slice(from, this.pos).trimEnd();
    if (raw === '') stop();
    return raw;
  }

  private seq(): unknown[] {
    if (++this.depth > MAX_DEPTH) stop();
    this.pos++;
    const items: unknown[] = [];
    this.space();
    if (this.text.charCodeAt(this.pos) === 93) {
      this.pos++;
      this.depth--;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.space();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 93) {
        this.depth--;
        return items;
      }
      if (c !== 44) stop();
      this.space();
      if (this.text.charCodeAt(this.pos) === 93) stop(); // a trailing comma
    }
  }

  private map(): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) stop();
    this.pos++;
    const map: Record<string, unknown> = {};
    this.space();
    if (this.text.charCodeAt(this.pos) === 125) {
      this.pos++;
      this.depth--;
      return map;
    }
    for (;;) {
      this.space();
      const keyStart = this.pos;
      const k = this.value();
      if (typeof k !== 'string' || k === '__proto__' || Object.hasOwn(map, k) || this.pos - keyStart > 1024) stop();
      this.space();
      if (this.text.charCodeAt(this.pos) !== 58) stop(); // `{a, b}`: a key with no value
      this.pos++;
      const after = this.text.charCodeAt(this.pos);
      if (!isSpace(after)) stop();
      map[k] = this.value();
      this.space();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 125) {
        this.depth--;
        return map;
      }
      if (c !== 44) stop();
      this.space();
      if (this.text.charCodeAt(this.pos) === 125) stop();
    }
  }

  /** Nothing but a comment may follow the collection on its line. */
  rest(): void {
    restIsComment(this.text, this.pos, this.end);
  }
}
