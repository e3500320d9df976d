import { ToolFailure } from '../tool-kit.js';

/** A 1-based cell position. */
export interface CellPos {
  row: number;
  col: number;
}

/** An inclusive rectangle of cells, top-left to bottom-right. */
export interface CellRange {
  start: CellPos;
  end: CellPos;
}

export const MAX_ROW = 1_048_576;
export const MAX_COL = 16_384; // XFD

const CELL_RE = /^\$?([A-Za-z]{1,3})\$?(\d+)$/;
const EXAMPLES = 'use a column letter and a row number starting at 1, e.g. A1, B2, AA10';

/** Column number → letters (1 → A, 27 → AA). Hand-written: five lines, not worth a dependency. */
export function colToLetters(col: number): string {
  let n = col;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export function lettersToCol(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function cellName(pos: CellPos): string {
  return `${colToLetters(pos.col)}${pos.row}`;
}

export function rangeName(range: CellRange): string {
  const a = cellName(range.start);
  const b = cellName(range.end);
  return a === b ? a : `${a}:${b}`;
}

/** Parses `B7` (also `$B$7`, lowercase). Throws ToolFailure naming the problem and the valid form. */
export function parseCell(ref: string, param = 'cell'): CellPos {
  const text = ref.trim();
  const m = CELL_RE.exec(text);
  if (!m) {
    if (/^[A-Za-z]+$/.test(text))
      throw new ToolFailure(`Invalid ${param} '${ref}': missing the row number (${EXAMPLES})`);
    if (/^\d+$/.test(text)) throw new ToolFailure(`Invalid ${param} '${ref}': missing the column letter (${EXAMPLES})`);
    if (text.includes(':'))
      throw new ToolFailure(`Invalid ${param} '${ref}': expected a single cell, not a range (${EXAMPLES})`);
    throw new ToolFailure(`Invalid ${param} '${ref}': ${EXAMPLES}`);
  }
  const col = lettersToCol(m[1] as string);
  const row = Number(m[2]);
  if (row < 1) throw new ToolFailure(`Invalid ${param} '${ref}': rows start at 1 (${EXAMPLES})`);
  if (row > MAX_ROW) throw new ToolFailure(`Invalid ${param} '${ref}': the last row of a worksheet is ${MAX_ROW}`);
  if (col > MAX_COL) throw new ToolFailure(`Invalid ${param} '${ref}': the last column of a worksheet is XFD`);
  return { row, col };
}

/** Orders two corners into a proper rectangle. */
export function normalizeRange(a: CellPos, b: CellPos): CellRange {
  return {
    start: { row: Math.min(a.row, b.row), col: Math.min(a.col, b.col) },
    end: { row: Math.max(a.row, b.row), col: Math.max(a.col, b.col) },
  };
}

/**
 * Parses `A1:C6` or a single cell; a leading `Sheet!` / `'My sheet'!` qualifier is split off and returned.
 */
export function parseRange(ref: string, param = 'range'): { sheet?: string; range: CellRange } {
  let text = ref.trim();
  let sheet: string | undefined;
  const bang = text.lastIndexOf('!');
  if (bang >= 0) {
    sheet = text.slice(0, bang).replace(/^'(.*)'$/, '$1');
    text = text.slice(bang + 1);
  }
  const parts = text.split(':');
  if (parts.length > 2 || parts.some((p) => p === '')) {
    throw new ToolFailure(`Invalid ${param} '${ref}': expected a range like A1:C6 (or a single cell like B2)`);
  }
  const start = parseCell(parts[0] as string, param);
  const end = parts[1] === undefined ? start : parseCell(parts[1], param);
  return { ...(sheet !== undefined ? { sheet } : {}), range: normalizeRange(start, end) };
}

export function rangeSize(range: CellRange): { rows: number; cols: number } {
  return { rows: range.end.row - range.start.row + 1, cols: range.end.col - range.start.col + 1 };
}

export function rangesOverlap(a: CellRange, b: CellRange): boolean {
  return a.start.row <= b.end.row && b.start.row <= a.end.row && a.start.col <= b.end.col && b.start.col <= a.end.col;
}

export function sameRange(a: CellRange, b: CellRange): boolean {
  return rangeName(a) === rangeName(b);
}
