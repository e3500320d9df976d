import type { MockTool } from '../tool-kit.js';
import { type CellPos, type CellRange, colToLetters } from './cells.js';
import { target, touch } from './lookup.js';
import { countParam, filepath, objectSchema, rowParam, sheetName } from './schema.js';
import { type Cell, cellPositions, type ExcelState, getCell, type Sheet, setCell } from './workbook.js';

type Axis = 'row' | 'col';

/** New index of `i` after inserting (delta > 0) or deleting (delta < 0) at `at`; undefined when deleted. */
function moveIndex(i: number, at: number, delta: number): number | undefined {
  if (i < at) return i;
  if (delta < 0 && i < at - delta) return undefined;
  return i + delta;
}

function moveRange(r: CellRange, axis: Axis, at: number, delta: number): CellRange | undefined {
  const a = moveIndex(r.start[axis], at, delta);
  const b = moveIndex(r.end[axis], at, delta);
  if (a === undefined && b === undefined) return undefined;
  const start = a ?? at;
  const end = b ?? at - 1;
  if (end < start) return undefined;
  return { start: { ...r.start, [axis]: start }, end: { ...r.end, [axis]: end } };
}

/**
 * Shifts cells, merged ranges and validation ranges. Formula references are not rewritten (this mock keeps
 * formulas as written, like a naive openpyxl-based server does).
 */
function shift(sheet: Sheet, axis: Axis, at: number, delta: number): void {
  const moved: { pos: CellPos; cell: Cell }[] = [];
  for (const pos of cellPositions(sheet)) {
    if (pos[axis] < at) continue;
    const cell = getCell(sheet, pos);
    setCell(sheet, pos, undefined);
    const to = moveIndex(pos[axis], at, delta);
    if (cell && to !== undefined) moved.push({ pos: { ...pos, [axis]: to }, cell });
  }
  for (const m of moved) setCell(sheet, m.pos, m.cell);
  sheet.merged = sheet.merged.flatMap((r) => {
    const n = moveRange(r, axis, at, delta);
    return n ? [n] : [];
  });
  sheet.validations = sheet.validations.flatMap((v) => {
    const n = moveRange(v.range, axis, at, delta);
    return n ? [{ ...v, range: n }] : [];
  });
}

function rowTool(name: string, description: string, axis: Axis, insert: boolean): MockTool<ExcelState> {
  const startKey = axis === 'row' ? 'start_row' : 'start_col';
  const what = axis === 'row' ? 'row' : 'column';
  return {
    name,
    description,
    ...(insert ? {} : { annotations: { destructiveHint: true } }),
    inputSchema: objectSchema(
      {
        filepath,
        sheet_name: sheetName,
        [startKey]: rowParam(
          axis === 'row'
            ? `1-based row number where ${insert ? 'the new rows are inserted' : 'deletion starts'}`
            : `1-based column number (1 = A, 2 = B, …) where ${insert ? 'the new columns are inserted' : 'deletion starts'}`,
        ),
        count: { ...countParam, description: `Number of ${what}s to ${insert ? 'insert' : 'delete'} (default 1)` },
      },
      ['filepath', 'sheet_name', startKey],
    ),
    handler(args, state) {
      const { wb, sheet } = target(state, args);
      const at = Number(args[startKey]);
      const count = typeof args.count === 'number' ? args.count : 1;
      shift(sheet, axis, at, insert ? count : -count);
      touch(wb);
      const label = (i: number) => (axis === 'row' ? String(i) : colToLetters(i));
      const span = count === 1 ? `${what} ${label(at)}` : `${what}s ${label(at)}–${label(at + count - 1)}`;
      return insert
        ? `Inserted ${count} ${what}(s) at ${what} ${label(at)} in ${wb.path} ${sheet.name}; existing cells moved ${axis === 'row' ? 'down' : 'right'}`
        : `Deleted ${span} from ${wb.path} ${sheet.name}; following cells moved ${axis === 'row' ? 'up' : 'left'}`;
    },
  };
}

export const rowTools = [
  rowTool('insert_rows', 'Insert one or more empty rows starting at a row; rows below move down.', 'row', true),
  rowTool(
    'insert_columns',
    'Insert one or more empty columns starting at a column; columns to the right move right.',
    'col',
    true,
  ),
  rowTool('delete_sheet_rows', 'Delete one or more rows starting at a row; rows below move up.', 'row', false),
  rowTool(
    'delete_sheet_columns',
    'Delete one or more columns starting at a column; columns to the right move left.',
    'col',
    false,
  ),
];
