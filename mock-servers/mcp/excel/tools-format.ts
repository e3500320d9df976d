import { type MockTool, ToolFailure } from '../tool-kit.js';
import { rangeName, rangesOverlap, sameRange } from './cells.js';
import { rangeArgs, target, touch } from './lookup.js';
import { cellParam, filepath, objectSchema, sheetName } from './schema.js';
import type { ExcelState } from './workbook.js';

const COLOR = 'Hex color such as "FFFF00" or "#FFFF00"';
const FORMAT_OPTIONS = {
  bold: { type: 'boolean', default: false, description: 'Bold font' },
  italic: { type: 'boolean', default: false, description: 'Italic font' },
  underline: { type: 'boolean', default: false, description: 'Underlined font' },
  font_size: { type: 'integer', minimum: 1, maximum: 409, description: 'Font size in points' },
  font_color: { type: 'string', description: `Font color. ${COLOR}` },
  bg_color: { type: 'string', description: `Background fill color. ${COLOR}` },
  border_style: {
    type: 'string',
    enum: ['thin', 'medium', 'thick', 'dashed', 'dotted', 'double'],
    description: 'Border style around each cell',
  },
  border_color: { type: 'string', description: `Border color. ${COLOR}` },
  number_format: { type: 'string', description: 'Excel number format, e.g. "#,##0.00", "0%", "yyyy-mm-dd"' },
  alignment: {
    type: 'string',
    enum: ['left', 'center', 'right', 'justify', 'top', 'middle', 'bottom'],
    description: 'Horizontal or vertical alignment',
  },
  wrap_text: { type: 'boolean', default: false, description: 'Wrap text within the cells' },
  merge_cells: { type: 'boolean', default: false, description: 'Also merge the range into one cell' },
  protection: { type: 'object', description: 'Cell protection, e.g. {"locked": true, "hidden": false}' },
  conditional_format: {
    type: 'object',
    description:
      'Conditional format rule, e.g. {"type": "cell_is", "operator": "greaterThan", "value": 100, "bg_color": "FFC7CE"}',
  },
};
const COLOR_KEYS = ['font_color', 'bg_color', 'border_color'];

export const formatRange: MockTool<ExcelState> = {
  name: 'format_range',
  description:
    'Apply formatting to a range of cells: font, colors, borders, number format, alignment, wrapping, merging, protection, conditional formatting.',
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: sheetName,
      start_cell: cellParam('Starting cell of the range'),
      end_cell: cellParam('Ending cell of the range (optional; default: start_cell only)'),
      ...FORMAT_OPTIONS,
    },
    ['filepath', 'sheet_name', 'start_cell'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const range = rangeArgs(args, undefined);
    const options = Object.fromEntries(
      Object.keys(FORMAT_OPTIONS)
        .filter((k) => args[k] !== undefined && args[k] !== false)
        .map((k) => [k, args[k]]),
    );
    if (Object.keys(options).length === 0) {
      throw new ToolFailure(`No formatting given. Pass at least one of: ${Object.keys(FORMAT_OPTIONS).join(', ')}`);
    }
    for (const key of COLOR_KEYS) {
      const v = options[key];
      if (typeof v === 'string' && !/^#?[0-9A-Fa-f]{6}$/.test(v))
        throw new ToolFailure(`Invalid ${key} '${v}': ${COLOR}`);
    }
    sheet.formats.push({ range, options });
    if (options.merge_cells === true && !sheet.merged.some((m) => sameRange(m, range))) sheet.merged.push(range);
    touch(wb);
    const shown = Object.entries(options).map(([k, v]) =>
      v === true ? k : `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`,
    );
    return `Applied formatting (${shown.join(', ')}) to ${wb.path} ${sheet.name}!${rangeName(range)}`;
  },
};

const mergeSchema = objectSchema(
  {
    filepath,
    sheet_name: sheetName,
    start_cell: cellParam('Top-left cell of the range'),
    end_cell: cellParam('Bottom-right cell of the range'),
  },
  ['filepath', 'sheet_name', 'start_cell', 'end_cell'],
);

export const mergeCells: MockTool<ExcelState> = {
  name: 'merge_cells',
  description: 'Merge a range of cells into one; only the top-left value is kept.',
  inputSchema: mergeSchema,
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const range = rangeArgs(args, undefined);
    if (rangeName(range).indexOf(':') < 0)
      throw new ToolFailure('A merge needs at least two cells: end_cell must differ from start_cell');
    const clash = sheet.merged.find((m) => rangesOverlap(m, range));
    if (clash)
      throw new ToolFailure(`${rangeName(range)} overlaps the merged range ${rangeName(clash)}; unmerge it first`);
    sheet.merged.push(range);
    touch(wb);
    return `Merged ${wb.path} ${sheet.name}!${rangeName(range)}`;
  },
};

export const unmergeCells: MockTool<ExcelState> = {
  name: 'unmerge_cells',
  description: 'Unmerge a previously merged range of cells.',
  inputSchema: mergeSchema,
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const range = rangeArgs(args, undefined);
    const found = sheet.merged.find((m) => sameRange(m, range));
    if (!found) {
      const list = sheet.merged.map(rangeName).join(', ') || 'none';
      throw new ToolFailure(`${rangeName(range)} is not a merged range on ${sheet.name}. Merged ranges: ${list}`);
    }
    sheet.merged = sheet.merged.filter((m) => m !== found);
    touch(wb);
    return `Unmerged ${wb.path} ${sheet.name}!${rangeName(range)}`;
  },
};

export const getMergedCells: MockTool<ExcelState> = {
  name: 'get_merged_cells',
  description: 'List the merged cell ranges of a worksheet.',
  annotations: { readOnlyHint: true },
  inputSchema: objectSchema({ filepath, sheet_name: sheetName }, ['filepath', 'sheet_name']),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    if (sheet.merged.length === 0) return `No merged cells in ${wb.path} ${sheet.name}`;
    return `Merged ranges in ${wb.path} ${sheet.name}: ${sheet.merged.map(rangeName).join(', ')}`;
  },
};

export const formatTools = [formatRange, mergeCells, unmergeCells, getMergedCells];
