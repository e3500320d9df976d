import { type CellPos, type CellRange, cellName, rangeName } from './cells.js';

export type CellValue = string | number | boolean | null;

export interface Cell {
  value: CellValue;
  /** Formula text including the leading `=`; `value` then holds its last computed result. */
  formula?: string;
}

export interface DataValidation {
  range: CellRange;
  type: 'whole' | 'decimal' | 'list' | 'date' | 'textLength';
  /** For `list`: the allowed values; otherwise a readable rule such as `between 0 and 10000`. */
  rule: string;
  allowed?: string[];
  prompt?: string;
}

export interface Sheet {
  name: string;
  /** Keyed by `row,col`. */
  cells: Map<string, Cell>;
  merged: CellRange[];
  validations: DataValidation[];
  formats: { range: CellRange; options: Record<string, unknown> }[];
  charts: { type: string; dataRange: string; target: string; title: string }[];
}

export interface Table {
  name: string;
  sheet: string;
  range: CellRange;
  style: string;
}

export interface Workbook {
  /** Path as the model addresses it, e.g. `test.xlsx`. */
  path: string;
  sheets: Sheet[];
  tables: Table[];
  modified: string;
}

export interface ExcelState {
  files: Map<string, Workbook>;
}

export const cellKey = (row: number, col: number): string => `${row},${col}`;

export function newSheet(name: string): Sheet {
  return { name, cells: new Map(), merged: [], validations: [], formats: [], charts: [] };
}

export function getCell(sheet: Sheet, pos: CellPos): Cell | undefined {
  return sheet.cells.get(cellKey(pos.row, pos.col));
}

export function setCell(sheet: Sheet, pos: CellPos, cell: Cell | undefined): void {
  const key = cellKey(pos.row, pos.col);
  if (!cell || (cell.value === null && !cell.formula)) sheet.cells.delete(key);
  else sheet.cells.set(key, cell);
}

export function cellPositions(sheet: Sheet): CellPos[] {
  return [...sheet.cells.keys()].map((k) => {
    const [row, col] = k.split(',').map(Number);
    return { row: row as number, col: col as number };
  });
}

/** The smallest range holding every non-empty cell, or undefined for an empty sheet. */
export function usedRange(sheet: Sheet): CellRange | undefined {
  const all = cellPositions(sheet);
  if (all.length === 0) return undefined;
  return {
    start: { row: Math.min(...all.map((p) => p.row)), col: Math.min(...all.map((p) => p.col)) },
    end: { row: Math.max(...all.map((p) => p.row)), col: Math.max(...all.map((p) => p.col)) },
  };
}

/** Display form of a value in cell listings: numbers as JS prints them, text as-is. */
export function showValue(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

/**
 * The one listing format every read uses (as the agent in case study 002 saw it):
 * one line per row, `Sheet1: A1=名称, B1=数量, C1=单价`; formulas shown as `B7=435 (=SUM(B2:B6))`.
 */
export function listRange(sheet: Sheet, range: CellRange): string[] {
  const lines: string[] = [];
  for (let row = range.start.row; row <= range.end.row; row++) {
    const parts: string[] = [];
    for (let col = range.start.col; col <= range.end.col; col++) {
      const cell = getCell(sheet, { row, col });
      if (!cell) continue;
      const name = cellName({ row, col });
      parts.push(
        cell.formula ? `${name}=${showValue(cell.value)} (${cell.formula})` : `${name}=${showValue(cell.value)}`,
      );
    }
    if (parts.length > 0) lines.push(`${sheet.name}: ${parts.join(', ')}`);
  }
  return lines;
}

export function describeValidation(v: DataValidation): string {
  const rule = v.type === 'list' ? `list of allowed values: ${(v.allowed ?? []).join(', ')}` : `${v.type} ${v.rule}`;
  return `${rangeName(v.range)}: ${rule}${v.prompt ? ` (prompt: "${v.prompt}")` : ''}`;
}
