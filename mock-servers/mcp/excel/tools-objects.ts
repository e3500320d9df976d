import { type MockTool, ToolFailure } from '../tool-kit.js';
import { type CellRange, parseCell, parseRange, rangeName, rangesOverlap } from './cells.js';
import { sheetFromRows } from './fixtures.js';
import { getSheet, target, touch } from './lookup.js';
import { cellParam, filepath, objectSchema, sheetName } from './schema.js';
import { type CellValue, type ExcelState, getCell, type Sheet, showValue, type Workbook } from './workbook.js';

export const CHART_TYPES = ['line', 'bar', 'pie', 'scatter', 'area'];
export const AGG_FUNCS = ['sum', 'average', 'count', 'min', 'max'];

const dataRange = {
  type: 'string',
  description: 'Source data range including the header row, e.g. "A1:D6" (may be sheet-qualified: "Q1!A1:D6")',
};

/** Resolves a data_range that may carry its own `Sheet!` prefix. */
function sourceRange(wb: Workbook, sheet: Sheet, ref: string): { sheet: Sheet; range: CellRange } {
  const parsed = parseRange(ref, 'data_range');
  return { sheet: parsed.sheet !== undefined ? getSheet(wb, parsed.sheet) : sheet, range: parsed.range };
}

export const createChart: MockTool<ExcelState> = {
  name: 'create_chart',
  description: 'Create a chart in a worksheet from a data range (first row = series names, first column = categories).',
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: sheetName,
      data_range: dataRange,
      chart_type: { type: 'string', enum: CHART_TYPES, description: 'Type of chart' },
      target_cell: cellParam('Cell where the top-left corner of the chart is placed, e.g. "F2"'),
      title: { type: 'string', default: '', description: 'Chart title' },
      x_axis: { type: 'string', default: '', description: 'X-axis label' },
      y_axis: { type: 'string', default: '', description: 'Y-axis label' },
    },
    ['filepath', 'sheet_name', 'data_range', 'chart_type', 'target_cell'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const src = sourceRange(wb, sheet, String(args.data_range));
    const at = parseCell(String(args.target_cell), 'target_cell');
    const title = typeof args.title === 'string' ? args.title : '';
    const chart = {
      type: String(args.chart_type),
      dataRange: `${src.sheet.name}!${rangeName(src.range)}`,
      target: rangeName({ start: at, end: at }),
      title,
    };
    sheet.charts.push(chart);
    touch(wb);
    return `Created ${chart.type} chart${title ? ` '${title}'` : ''} from ${chart.dataRange} at ${sheet.name}!${chart.target} in ${wb.path}`;
  },
};

function aggregate(func: string, xs: number[]): number {
  if (func === 'count') return xs.length;
  if (xs.length === 0) return 0;
  if (func === 'average') return Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1e6) / 1e6;
  if (func === 'min') return Math.min(...xs);
  if (func === 'max') return Math.max(...xs);
  return xs.reduce((a, b) => a + b, 0);
}

export const createPivotTable: MockTool<ExcelState> = {
  name: 'create_pivot_table',
  description:
    'Create a pivot table summarising a data range: group by the `rows` fields (and optional `columns`) and aggregate the `values` fields. Writes it to a new sheet "<sheet_name>_pivot" and returns the summary.',
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: { type: 'string', description: 'Worksheet holding the source data' },
      data_range: dataRange,
      rows: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: 'Header names of the fields to group rows by',
      },
      values: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: 'Header names of the fields to aggregate',
      },
      columns: {
        type: 'array',
        items: { type: 'string' },
        description: 'Header names of fields to split columns by (optional)',
      },
      agg_func: { type: 'string', enum: AGG_FUNCS, default: 'sum', description: 'Aggregation function' },
    },
    ['filepath', 'sheet_name', 'data_range', 'rows', 'values'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const src = sourceRange(wb, sheet, String(args.data_range));
    const { start, end } = src.range;
    const headers: string[] = [];
    for (let col = start.col; col <= end.col; col++)
      headers.push(showValue(getCell(src.sheet, { row: start.row, col })?.value ?? null));
    const index = (field: string): number => {
      const i = headers.indexOf(field);
      if (i < 0)
        throw new ToolFailure(
          `Field '${field}' is not a header of ${src.sheet.name}!${rangeName(src.range)}. Headers: ${headers.join(', ')}`,
        );
      return i;
    };
    const keyFields = [...(args.rows as string[]), ...((args.columns as string[] | undefined) ?? [])];
    const keyIdx = keyFields.map(index);
    const valueFields = args.values as string[];
    const valIdx = valueFields.map(index);
    const func = typeof args.agg_func === 'string' ? args.agg_func : 'sum';
    const groups = new Map<string, number[][]>();
    for (let row = start.row + 1; row <= end.row; row++) {
      const at = (i: number): CellValue => getCell(src.sheet, { row, col: start.col + i })?.value ?? null;
      if (keyIdx.every((i) => at(i) === null)) continue;
      const key = keyIdx.map((i) => showValue(at(i))).join(' / ');
      const bucket = groups.get(key) ?? valIdx.map(() => []);
      valIdx.forEach((i, j) => {
        const v = at(i);
        if (typeof v === 'number' || (func === 'count' && v !== null)) bucket[j]?.push(typeof v === 'number' ? v : 1);
      });
      groups.set(key, bucket);
    }
    const header = [keyFields.join(' / '), ...valueFields.map((v) => `${func} of ${v}`)];
    const table: CellValue[][] = [header, ...[...groups].map(([k, b]) => [k, ...b.map((xs) => aggregate(func, xs))])];
    const name = `${sheet.name}_pivot`.slice(0, 31);
    const pivot = sheetFromRows(name, table);
    const existing = wb.sheets.findIndex((s) => s.name === name);
    if (existing >= 0) wb.sheets[existing] = pivot;
    else wb.sheets.push(pivot);
    touch(wb);
    return [
      `Created pivot table on sheet '${name}' from ${src.sheet.name}!${rangeName(src.range)} (${func} of ${valueFields.join(', ')} by ${keyFields.join(', ')})`,
      ...table.map((r) => r.map(showValue).join(' | ')),
    ].join('\n');
  },
};

export const createTable: MockTool<ExcelState> = {
  name: 'create_table',
  description: 'Create a native Excel table (with header row, filters and banded style) from a range of cells.',
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: sheetName,
      data_range: { type: 'string', description: 'Range of the table including its header row, e.g. "A1:C6"' },
      table_name: { type: 'string', description: 'Unique table name (optional; default "Table1", "Table2", …)' },
      table_style: { type: 'string', default: 'TableStyleMedium9', description: 'Excel table style name' },
    },
    ['filepath', 'sheet_name', 'data_range'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const src = sourceRange(wb, sheet, String(args.data_range));
    const name =
      typeof args.table_name === 'string' && args.table_name !== '' ? args.table_name : `Table${wb.tables.length + 1}`;
    if (!/^[\p{L}_][\p{L}\p{N}_.]*$/u.test(name)) {
      throw new ToolFailure(
        `Invalid table_name '${name}': start with a letter or underscore; letters, digits, _ and . only (no spaces)`,
      );
    }
    if (wb.tables.some((t) => t.name.toLowerCase() === name.toLowerCase())) {
      throw new ToolFailure(
        `A table named '${name}' already exists in ${wb.path}. Tables: ${wb.tables.map((t) => t.name).join(', ')}`,
      );
    }
    const clash = wb.tables.find((t) => t.sheet === src.sheet.name && rangesOverlap(t.range, src.range));
    if (clash)
      throw new ToolFailure(`${rangeName(src.range)} overlaps table '${clash.name}' (${rangeName(clash.range)})`);
    const style = typeof args.table_style === 'string' ? args.table_style : 'TableStyleMedium9';
    wb.tables.push({ name, sheet: src.sheet.name, range: src.range, style });
    touch(wb);
    return `Created table '${name}' on ${src.sheet.name}!${rangeName(src.range)} in ${wb.path} (style ${style})`;
  },
};

export const objectTools = [createChart, createPivotTable, createTable];
