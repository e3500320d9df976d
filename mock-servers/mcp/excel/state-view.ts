import { cellName } from './cells.js';
import type { ExcelState, Sheet } from './workbook.js';

type SheetMap<T> = Record<string, Record<string, T>>;

function positionOf(key: string): { row: number; col: number } {
  const [row, col] = key.split(',').map(Number);
  return { row: row as number, col: col as number };
}

/** A sheet's cells by A1 name, in row then column order. */
function cellsOf(sheet: Sheet, pick: (cell: { value: unknown; formula?: string }) => unknown): Record<string, unknown> {
  const entries = [...sheet.cells].map(([key, cell]) => ({ pos: positionOf(key), cell }));
  entries.sort((a, b) => a.pos.row - b.pos.row || a.pos.col - b.pos.col);
  const out: Record<string, unknown> = {};
  for (const { pos, cell } of entries) {
    const v = pick(cell);
    if (v !== undefined) out[cellName(pos)] = v;
  }
  return out;
}

/**
 * The excel server's state view (`expect.state`): per workbook, its sheet names in order, and per sheet the value of
 * every non-empty cell (a formula's last computed result) and the formula of every formula cell, by A1 name:
 * `workbooks["report.xlsx"].Summary.B2`, `formulas["report.xlsx"].Summary.B2`, `sheets["report.xlsx"]`. Read-only.
 */
export function excelStateView(state: ExcelState): unknown {
  const workbooks: SheetMap<unknown> = {};
  const formulas: SheetMap<unknown> = {};
  const sheets: Record<string, string[]> = {};
  const merged: SheetMap<string[]> = {};
  for (const [path, wb] of state.files) {
    sheets[path] = wb.sheets.map((s) => s.name);
    workbooks[path] = Object.fromEntries(wb.sheets.map((s) => [s.name, cellsOf(s, (c) => c.value)]));
    formulas[path] = Object.fromEntries(wb.sheets.map((s) => [s.name, cellsOf(s, (c) => c.formula)]));
    merged[path] = Object.fromEntries(
      wb.sheets.map((s) => [s.name, s.merged.map((r) => `${cellName(r.start)}:${cellName(r.end)}`)]),
    );
  }
  return { workbooks, formulas, sheets, merged };
}
