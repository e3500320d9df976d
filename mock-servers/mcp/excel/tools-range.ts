import type { MockTool } from '../tool-kit.js';
import { type CellRange, parseCell, rangeName, rangeSize, rangesOverlap } from './cells.js';
import { getSheet, rangeArgs, target, touch } from './lookup.js';
import { cellParam, filepath, objectSchema, sheetName } from './schema.js';
import { type Cell, cellPositions, type ExcelState, getCell, type Sheet, setCell, usedRange } from './workbook.js';

function copyCells(from: Sheet, range: CellRange): { dr: number; dc: number; cell: Cell }[] {
  const out: { dr: number; dc: number; cell: Cell }[] = [];
  for (const pos of cellPositions(from)) {
    if (pos.row < range.start.row || pos.row > range.end.row || pos.col < range.start.col || pos.col > range.end.col)
      continue;
    const cell = getCell(from, pos);
    if (cell) out.push({ dr: pos.row - range.start.row, dc: pos.col - range.start.col, cell: { ...cell } });
  }
  return out;
}

export const copyRange: MockTool<ExcelState> = {
  name: 'copy_range',
  description:
    'Copy a range of cells (values and formulas) to another location, on the same or another sheet. Formulas are copied as written.',
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: { type: 'string', description: 'Name of the source worksheet' },
      source_start: cellParam('Top-left cell of the source range'),
      source_end: cellParam('Bottom-right cell of the source range'),
      target_start: cellParam('Top-left cell of the destination'),
      target_sheet: { type: 'string', description: 'Destination worksheet (optional; default: the source sheet)' },
    },
    ['filepath', 'sheet_name', 'source_start', 'source_end', 'target_start'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const src = rangeArgs(args, sheet, 'source_start', 'source_end');
    const dest = parseCell(String(args.target_start), 'target_start');
    const to =
      typeof args.target_sheet === 'string' && args.target_sheet !== '' ? getSheet(wb, args.target_sheet) : sheet;
    const cells = copyCells(sheet, src);
    const size = rangeSize(src);
    for (let r = 0; r < size.rows; r++)
      for (let c = 0; c < size.cols; c++) setCell(to, { row: dest.row + r, col: dest.col + c }, undefined);
    for (const { dr, dc, cell } of cells) setCell(to, { row: dest.row + dr, col: dest.col + dc }, cell);
    touch(wb);
    const destRange = { start: dest, end: { row: dest.row + size.rows - 1, col: dest.col + size.cols - 1 } };
    return `Copied ${sheet.name}!${rangeName(src)} to ${to.name}!${rangeName(destRange)} (${cells.length} non-empty cells)`;
  },
};

export const deleteRange: MockTool<ExcelState> = {
  name: 'delete_range',
  description: 'Delete a range of cells and shift the remaining cells up or left to fill the gap.',
  annotations: { destructiveHint: true },
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: sheetName,
      start_cell: cellParam('Top-left cell of the range to delete'),
      end_cell: cellParam('Bottom-right cell of the range to delete'),
      shift_direction: {
        type: 'string',
        enum: ['up', 'left'],
        default: 'up',
        description: 'Direction to shift cells ("up" or "left")',
      },
    },
    ['filepath', 'sheet_name', 'start_cell', 'end_cell'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const range = rangeArgs(args, sheet);
    const size = rangeSize(range);
    const left = args.shift_direction === 'left';
    const moved: { row: number; col: number; cell: Cell }[] = [];
    for (const pos of cellPositions(sheet)) {
      const inCols = pos.col >= range.start.col && pos.col <= range.end.col;
      const inRows = pos.row >= range.start.row && pos.row <= range.end.row;
      const inside = inCols && inRows;
      const shifts = left ? inRows && pos.col > range.end.col : inCols && pos.row > range.end.row;
      if (!inside && !shifts) continue;
      const cell = getCell(sheet, pos);
      setCell(sheet, pos, undefined);
      if (shifts && cell)
        moved.push({ row: left ? pos.row : pos.row - size.rows, col: left ? pos.col - size.cols : pos.col, cell });
    }
    for (const m of moved) setCell(sheet, m, m.cell);
    touch(wb);
    return `Deleted ${sheet.name}!${rangeName(range)} in ${wb.path} and shifted cells ${left ? 'left' : 'up'}`;
  },
};

export const validateRange: MockTool<ExcelState> = {
  name: 'validate_excel_range',
  description:
    'Validate that a cell range exists and is properly formatted; reports its size and where the sheet has data.',
  annotations: { readOnlyHint: true },
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: sheetName,
      start_cell: cellParam('Starting cell of the range'),
      end_cell: cellParam('Ending cell of the range (optional)'),
    },
    ['filepath', 'sheet_name', 'start_cell'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const start = parseCell(String(args.start_cell), 'start_cell');
    const range = rangeArgs(args, undefined);
    const size = rangeSize(range);
    const used = usedRange(sheet);
    const filled = cellPositions(sheet).filter((p) => rangesOverlap(range, { start: p, end: p })).length;
    return [
      `Range ${rangeName(range)} on ${wb.path} ${sheet.name} is valid: ${size.rows} rows × ${size.cols} columns, ${filled} non-empty of ${size.rows * size.cols} cells.`,
      `Starts at ${rangeName({ start, end: start })}. Data in the sheet spans ${used ? rangeName(used) : '(empty sheet)'}.`,
    ].join(' ');
  },
};

export const rangeTools = [copyRange, deleteRange, validateRange];
