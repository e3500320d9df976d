import { type MockTool, ToolFailure } from '../tool-kit.js';
import { rangeName } from './cells.js';
import { findWorkbook, getSheet, getWorkbook, normalizePath, touch } from './lookup.js';
import { filepath, objectSchema } from './schema.js';
import { type ExcelState, newSheet, type Sheet, usedRange, type Workbook } from './workbook.js';

const EXTENSIONS = /\.(xlsx|xlsm)$/i;
const INVALID_SHEET_CHARS = /[\\/?*[\]:]/;

function checkNewSheetName(wb: Workbook, name: string): void {
  if (name.trim() === '' || name.length > 31 || INVALID_SHEET_CHARS.test(name)) {
    throw new ToolFailure(`Invalid sheet name '${name}': 1–31 characters, none of \\ / ? * [ ] :`);
  }
  if (wb.sheets.some((s) => s.name.toLowerCase() === name.toLowerCase())) {
    throw new ToolFailure(
      `Sheet '${name}' already exists in ${wb.path}. Existing sheets: ${wb.sheets.map((s) => s.name).join(', ')}`,
    );
  }
}

function cloneSheet(sheet: Sheet, name: string): Sheet {
  return {
    name,
    cells: new Map([...sheet.cells].map(([k, c]) => [k, { ...c }])),
    merged: sheet.merged.map((r) => ({ ...r })),
    validations: sheet.validations.map((v) => ({ ...v })),
    formats: sheet.formats.map((f) => ({ ...f })),
    charts: sheet.charts.map((c) => ({ ...c })),
  };
}

export const createWorkbook: MockTool<ExcelState> = {
  name: 'create_workbook',
  description: 'Create a new Excel workbook with one empty worksheet named "Sheet1".',
  inputSchema: objectSchema(
    { filepath: { type: 'string', description: 'Path where to create the workbook (must end in .xlsx)' } },
    ['filepath'],
  ),
  handler(args, state) {
    const path = normalizePath(String(args.filepath));
    if (!EXTENSIONS.test(path))
      throw new ToolFailure(`Invalid filepath '${args.filepath}': the file name must end in .xlsx or .xlsm`);
    if (findWorkbook(state, path)) throw new ToolFailure(`Workbook '${path}' already exists; choose another file name`);
    const wb: Workbook = { path, sheets: [newSheet('Sheet1')], tables: [], modified: '' };
    touch(wb);
    state.files.set(path, wb);
    return `Created workbook ${path} with one empty worksheet 'Sheet1'`;
  },
};

export const createWorksheet: MockTool<ExcelState> = {
  name: 'create_worksheet',
  description: 'Create a new, empty worksheet in an existing workbook (added after the last sheet).',
  inputSchema: objectSchema({ filepath, sheet_name: { type: 'string', description: 'Name for the new worksheet' } }, [
    'filepath',
    'sheet_name',
  ]),
  handler(args, state) {
    const wb = getWorkbook(state, String(args.filepath));
    const name = String(args.sheet_name);
    checkNewSheetName(wb, name);
    wb.sheets.push(newSheet(name));
    touch(wb);
    return `Created worksheet '${name}' in ${wb.path}. Sheets now: ${wb.sheets.map((s) => s.name).join(', ')}`;
  },
};

export const copyWorksheet: MockTool<ExcelState> = {
  name: 'copy_worksheet',
  description: 'Copy a worksheet (data, formulas, merged cells, validation) within a workbook under a new name.',
  inputSchema: objectSchema(
    {
      filepath,
      source_sheet: { type: 'string', description: 'Name of the sheet to copy' },
      target_sheet: { type: 'string', description: 'Name for the new copy' },
    },
    ['filepath', 'source_sheet', 'target_sheet'],
  ),
  handler(args, state) {
    const wb = getWorkbook(state, String(args.filepath));
    const source = getSheet(wb, String(args.source_sheet));
    const name = String(args.target_sheet);
    checkNewSheetName(wb, name);
    wb.sheets.push(cloneSheet(source, name));
    touch(wb);
    return `Copied worksheet '${source.name}' to '${name}' in ${wb.path}`;
  },
};

export const deleteWorksheet: MockTool<ExcelState> = {
  name: 'delete_worksheet',
  description: 'Delete a worksheet from a workbook. A workbook must keep at least one sheet.',
  annotations: { destructiveHint: true },
  inputSchema: objectSchema(
    { filepath, sheet_name: { type: 'string', description: 'Name of the worksheet to delete' } },
    ['filepath', 'sheet_name'],
  ),
  handler(args, state) {
    const wb = getWorkbook(state, String(args.filepath));
    const sheet = getSheet(wb, String(args.sheet_name));
    if (wb.sheets.length === 1)
      throw new ToolFailure(`Cannot delete '${sheet.name}': it is the only sheet in ${wb.path}`);
    wb.sheets = wb.sheets.filter((s) => s !== sheet);
    wb.tables = wb.tables.filter((t) => t.sheet !== sheet.name);
    touch(wb);
    return `Deleted worksheet '${sheet.name}' from ${wb.path}. Remaining sheets: ${wb.sheets.map((s) => s.name).join(', ')}`;
  },
};

export const renameWorksheet: MockTool<ExcelState> = {
  name: 'rename_worksheet',
  description: 'Rename a worksheet in a workbook.',
  inputSchema: objectSchema(
    {
      filepath,
      old_name: { type: 'string', description: 'Current name of the worksheet' },
      new_name: { type: 'string', description: 'New name for the worksheet' },
    },
    ['filepath', 'old_name', 'new_name'],
  ),
  handler(args, state) {
    const wb = getWorkbook(state, String(args.filepath));
    const sheet = getSheet(wb, String(args.old_name));
    const name = String(args.new_name);
    checkNewSheetName(wb, name);
    for (const t of wb.tables) if (t.sheet === sheet.name) t.sheet = name;
    sheet.name = name;
    touch(wb);
    return `Renamed worksheet '${String(args.old_name)}' to '${name}' in ${wb.path}`;
  },
};

export const workbookMetadata: MockTool<ExcelState> = {
  name: 'get_workbook_metadata',
  description: 'Get metadata about a workbook: its sheets, tables and (optionally) the used range of each sheet.',
  annotations: { readOnlyHint: true },
  inputSchema: objectSchema(
    {
      filepath,
      include_ranges: {
        type: 'boolean',
        default: false,
        description: 'Whether to include the used range of each sheet',
      },
    },
    ['filepath'],
  ),
  handler(args, state) {
    const wb = getWorkbook(state, String(args.filepath));
    return {
      filename: wb.path,
      sheets: wb.sheets.map((s) => s.name),
      ...(args.include_ranges === true
        ? {
            ranges: Object.fromEntries(
              wb.sheets.map((s) => {
                const used = usedRange(s);
                return [s.name, used ? rangeName(used) : ''];
              }),
            ),
          }
        : {}),
      tables: wb.tables.map((t) => ({ name: t.name, sheet: t.sheet, range: rangeName(t.range) })),
      modified: wb.modified,
    };
  },
};

export const workbookTools = [
  createWorkbook,
  createWorksheet,
  copyWorksheet,
  deleteWorksheet,
  renameWorksheet,
  workbookMetadata,
];
