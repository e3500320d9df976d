import { ToolFailure } from '../tool-kit.js';
import { type CellPos, type CellRange, normalizeRange, parseCell } from './cells.js';
import { recalculate } from './formula.js';
import { type ExcelState, type Sheet, usedRange, type Workbook } from './workbook.js';

export function normalizePath(filepath: string): string {
  return filepath.trim().replace(/\\/g, '/').replace(/^\.\//, '');
}

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** Finds a workbook by path; an absolute or nested path matches by file name (models often invent a folder). */
export function findWorkbook(state: ExcelState, filepath: string): Workbook | undefined {
  const path = normalizePath(filepath);
  const exact = state.files.get(path);
  if (exact) return exact;
  const byName = [...state.files.values()].filter((w) => basename(w.path) === basename(path));
  return byName.length === 1 ? byName[0] : undefined;
}

export function getWorkbook(state: ExcelState, filepath: string): Workbook {
  const wb = findWorkbook(state, filepath);
  if (!wb) {
    const names = [...state.files.keys()].join(', ');
    throw new ToolFailure(`File not found: '${filepath}'. Available workbooks: ${names}`);
  }
  return wb;
}

export function getSheet(wb: Workbook, name: string): Sheet {
  const sheet = wb.sheets.find((s) => s.name === name);
  if (!sheet) {
    const names = wb.sheets.map((s) => s.name).join(', ');
    throw new ToolFailure(`Sheet '${name}' not found in ${wb.path}. Available sheets: ${names}`);
  }
  return sheet;
}

/** Workbook + sheet from the usual `filepath` / `sheet_name` arguments. */
export function target(state: ExcelState, args: Record<string, unknown>): { wb: Workbook; sheet: Sheet } {
  const wb = getWorkbook(state, String(args.filepath));
  return { wb, sheet: getSheet(wb, String(args.sheet_name)) };
}

/** Parses the optional `key` argument as a cell; `fallback` when absent or empty. */
export function optionalCell(args: Record<string, unknown>, key: string, fallback: CellPos): CellPos {
  const v = args[key];
  return typeof v === 'string' && v.trim() !== '' ? parseCell(v, key) : fallback;
}

/** start_cell (default A1) … end_cell (default: end of the used range, or start_cell). */
export function rangeArgs(
  args: Record<string, unknown>,
  sheet: Sheet | undefined,
  startKey = 'start_cell',
  endKey = 'end_cell',
): CellRange {
  const start = optionalCell(args, startKey, { row: 1, col: 1 });
  const used = sheet ? usedRange(sheet) : undefined;
  const fallbackEnd = used ? { row: Math.max(used.end.row, start.row), col: Math.max(used.end.col, start.col) } : start;
  return normalizeRange(start, optionalCell(args, endKey, fallbackEnd));
}

/** Marks the workbook modified and recomputes formulas after a change. */
export function touch(wb: Workbook): void {
  wb.modified = new Date(Date.UTC(2024, 6, 1)).toISOString();
  recalculate(wb);
}
