import { type CellPos, type CellRange, lettersToCol, MAX_COL, MAX_ROW, normalizeRange } from './cells.js';
import { type CellValue, getCell, type Sheet, type Workbook } from './workbook.js';

/**
 * A deliberately small spreadsheet formula engine: numbers, strings, cell references (optionally
 * `Sheet!` / `'Sheet name'!` qualified), ranges as function arguments, + - * / and parentheses, and the
 * functions below. Hand-written because the JS formula libraries pull in large dependency trees and we
 * only need enough to make `apply_formula` return a checkable number.
 */
export const SUPPORTED_FUNCTIONS = ['SUM', 'AVERAGE', 'MIN', 'MAX', 'COUNT', 'COUNTA', 'PRODUCT', 'ROUND', 'ABS'];

export class FormulaSyntaxError extends Error {}

type Node =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'ref'; sheet?: string; pos: CellPos }
  | { k: 'range'; sheet?: string; range: CellRange }
  | { k: 'call'; name: string; args: Node[] }
  | { k: 'neg'; x: Node }
  | { k: 'bin'; op: string; a: Node; b: Node };

const CELL = /^\$?([A-Za-z]{1,3})\$?([0-9]+)/;
const WORD = /^[\p{L}\p{N}_.]+/u;

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): Node {
    const node = this.expr();
    this.ws();
    if (this.i < this.s.length) {
      if (this.s[this.i] === ')') throw new FormulaSyntaxError(`unmatched ')' at position ${this.i + 1}`);
      throw new FormulaSyntaxError(`unexpected '${this.s[this.i]}' at position ${this.i + 1}`);
    }
    return node;
  }

  private ws(): void {
    while (this.s[this.i] === ' ') this.i++;
  }

  private peek(): string | undefined {
    this.ws();
    return this.s[this.i];
  }

  private expr(): Node {
    let a = this.term();
    for (let c = this.peek(); c === '+' || c === '-'; c = this.peek()) {
      this.i++;
      a = { k: 'bin', op: c, a, b: this.term() };
    }
    return a;
  }

  private term(): Node {
    let a = this.factor();
    for (let c = this.peek(); c === '*' || c === '/'; c = this.peek()) {
      this.i++;
      a = { k: 'bin', op: c, a, b: this.factor() };
    }
    return a;
  }

  private factor(): Node {
    const c = this.peek();
    if (c === undefined) throw new FormulaSyntaxError('unexpected end of formula');
    if (c === '-') {
      this.i++;
      return { k: 'neg', x: this.factor() };
    }
    if (c === '(') {
      this.i++;
      const inner = this.expr();
      if (this.peek() !== ')') throw new FormulaSyntaxError('missing closing parenthesis');
      this.i++;
      return inner;
    }
    if (c === '"') {
      const end = this.s.indexOf('"', this.i + 1);
      if (end < 0) throw new FormulaSyntaxError('unterminated string literal');
      const v = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      return { k: 'str', v };
    }
    const rest = this.s.slice(this.i);
    const num = /^\d+(\.\d+)?/.exec(rest);
    if (num && !/^\d+[A-Za-z_!\p{L}]/u.test(rest)) {
      this.i += num[0].length;
      return { k: 'num', v: Number(num[0]) };
    }
    return this.nameOrRef();
  }

  private nameOrRef(): Node {
    let sheet: string | undefined;
    const rest = this.s.slice(this.i);
    const quoted = /^'((?:[^']|'')+)'!/.exec(rest);
    if (quoted) {
      sheet = (quoted[1] as string).replace(/''/g, "'");
      this.i += quoted[0].length;
    } else {
      const word = WORD.exec(rest);
      if (!word) throw new FormulaSyntaxError(`unexpected '${rest[0]}' at position ${this.i + 1}`);
      const after = this.s[this.i + word[0].length];
      if (after === '!') {
        sheet = word[0];
        this.i += word[0].length + 1;
      } else if (after === '(') {
        return this.call(word[0]);
      }
    }
    const start = this.cell();
    if (this.s[this.i] === ':') {
      this.i++;
      const end = this.cell();
      return { k: 'range', ...(sheet !== undefined ? { sheet } : {}), range: normalizeRange(start, end) };
    }
    return { k: 'ref', ...(sheet !== undefined ? { sheet } : {}), pos: start };
  }

  private cell(): CellPos {
    const rest = this.s.slice(this.i);
    const m = CELL.exec(rest);
    const word = WORD.exec(rest)?.[0] ?? rest.slice(0, 1);
    if (!m || (WORD.exec(rest)?.[0].length ?? 0) > m[0].replace(/\$/g, '').length) {
      throw new FormulaSyntaxError(`'${word}' is not a cell reference or a known function (position ${this.i + 1})`);
    }
    const row = Number(m[2]);
    const col = lettersToCol(m[1] as string);
    if (row < 1 || row > MAX_ROW || col > MAX_COL) throw new FormulaSyntaxError(`invalid cell reference '${m[0]}'`);
    this.i += m[0].length;
    return { row, col };
  }

  private call(name: string): Node {
    this.i += name.length + 1; // name and '('
    const args: Node[] = [];
    if (this.peek() === ')') {
      this.i++;
      return { k: 'call', name: name.toUpperCase(), args };
    }
    for (;;) {
      args.push(this.expr());
      const c = this.peek();
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === ')') {
        this.i++;
        return { k: 'call', name: name.toUpperCase(), args };
      }
      throw new FormulaSyntaxError(`missing closing parenthesis after the arguments of ${name.toUpperCase()}`);
    }
  }
}

/** Parses a formula (with or without its leading `=`); throws FormulaSyntaxError. */
export function parseFormula(formula: string): Node {
  const body = formula.trim().replace(/^=/, '');
  if (body.trim() === '') throw new FormulaSyntaxError('the formula is empty');
  return new Parser(body).parse();
}

/** Function names a formula uses that this engine does not know. */
export function unknownFunctions(node: Node): string[] {
  const out = new Set<string>();
  const walk = (n: Node): void => {
    if (n.k === 'call') {
      if (!SUPPORTED_FUNCTIONS.includes(n.name)) out.add(n.name);
      n.args.forEach(walk);
    } else if (n.k === 'neg') walk(n.x);
    else if (n.k === 'bin') {
      walk(n.a);
      walk(n.b);
    }
  };
  walk(node);
  return [...out];
}

class CellError extends Error {}

/** Evaluates a formula in the context of `sheet`; returns a value or an Excel error string (`#DIV/0!`). */
export function evaluateFormula(formula: string, workbook: Workbook, sheet: Sheet): CellValue {
  const node = parseFormula(formula);
  try {
    const v = evalNode(node, workbook, sheet);
    if (Array.isArray(v)) throw new CellError('#VALUE!');
    return typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v;
  } catch (e) {
    if (e instanceof CellError) return e.message;
    throw e;
  }
}

type Val = CellValue | CellValue[];

function sheetOf(workbook: Workbook, current: Sheet, name: string | undefined): Sheet {
  if (name === undefined) return current;
  const s = workbook.sheets.find((x) => x.name === name);
  if (!s) throw new CellError('#REF!');
  return s;
}

function evalNode(n: Node, wb: Workbook, sheet: Sheet): Val {
  switch (n.k) {
    case 'num':
    case 'str':
      return n.v;
    case 'ref':
      return getCell(sheetOf(wb, sheet, n.sheet), n.pos)?.value ?? null;
    case 'range': {
      const s = sheetOf(wb, sheet, n.sheet);
      const out: CellValue[] = [];
      for (let row = n.range.start.row; row <= n.range.end.row; row++) {
        for (let col = n.range.start.col; col <= n.range.end.col; col++)
          out.push(getCell(s, { row, col })?.value ?? null);
      }
      return out;
    }
    case 'neg':
      return -num(evalNode(n.x, wb, sheet));
    case 'bin': {
      const a = num(evalNode(n.a, wb, sheet));
      const b = num(evalNode(n.b, wb, sheet));
      if (n.op === '+') return a + b;
      if (n.op === '-') return a - b;
      if (n.op === '*') return a * b;
      if (b === 0) throw new CellError('#DIV/0!');
      return a / b;
    }
    case 'call':
      return callFunction(
        n.name,
        n.args.map((a) => evalNode(a, wb, sheet)),
      );
  }
}

function num(v: Val): number {
  if (Array.isArray(v)) throw new CellError('#VALUE!');
  if (v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v.startsWith('#')) throw new CellError(v);
  const parsed = Number(v);
  if (v.trim() === '' || Number.isNaN(parsed)) throw new CellError('#VALUE!');
  return parsed;
}

function callFunction(name: string, args: Val[]): CellValue {
  const flat = args.flatMap((a) => (Array.isArray(a) ? a : [a]));
  const nums = args.flatMap((a) => (Array.isArray(a) ? a.filter((x): x is number => typeof x === 'number') : [num(a)]));
  switch (name) {
    case 'SUM':
      return nums.reduce((s, x) => s + x, 0);
    case 'PRODUCT':
      return nums.reduce((s, x) => s * x, 1);
    case 'AVERAGE':
      if (nums.length === 0) throw new CellError('#DIV/0!');
      return nums.reduce((s, x) => s + x, 0) / nums.length;
    case 'MIN':
      return nums.length ? Math.min(...nums) : 0;
    case 'MAX':
      return nums.length ? Math.max(...nums) : 0;
    case 'COUNT':
      return nums.length;
    case 'COUNTA':
      return flat.filter((x) => x !== null && x !== '').length;
    case 'ABS':
      return Math.abs(num(args[0] ?? null));
    case 'ROUND': {
      const f = 10 ** num(args[1] ?? 0);
      return Math.round(num(args[0] ?? null) * f) / f;
    }
    default:
      throw new CellError('#NAME?');
  }
}

/** Recomputes every formula cell of the workbook (a few passes so chains settle; no cycle detection). */
export function recalculate(workbook: Workbook): void {
  for (let pass = 0; pass < 3; pass++) {
    for (const sheet of workbook.sheets) {
      for (const cell of sheet.cells.values()) {
        if (cell.formula) {
          try {
            cell.value = evaluateFormula(cell.formula, workbook, sheet);
          } catch {
            cell.value = '#NAME?';
          }
        }
      }
    }
  }
}
