import { type MockTool, ToolFailure } from '../tool-kit.js';
import { type CellRange, parseCell, rangeName, rangeSize, rangesOverlap } from './cells.js';
import { evaluateFormula, FormulaSyntaxError, parseFormula, SUPPORTED_FUNCTIONS, unknownFunctions } from './formula.js';
import { rangeArgs, target, touch } from './lookup.js';
import { cellParam, filepath, objectSchema, sheetName } from './schema.js';
import {
  type CellValue,
  describeValidation,
  type ExcelState,
  getCell,
  listRange,
  setCell,
  usedRange,
} from './workbook.js';

const PREVIEW_ROWS = 5;

function intersect(a: CellRange, b: CellRange): CellRange | undefined {
  if (!rangesOverlap(a, b)) return undefined;
  return {
    start: { row: Math.max(a.start.row, b.start.row), col: Math.max(a.start.col, b.start.col) },
    end: { row: Math.min(a.end.row, b.end.row), col: Math.min(a.end.col, b.end.col) },
  };
}

function formulaOrFail(formula: string): string {
  const text = formula.trim().startsWith('=') ? formula.trim() : `=${formula.trim()}`;
  try {
    parseFormula(text);
  } catch (e) {
    if (e instanceof FormulaSyntaxError) throw new ToolFailure(`Invalid formula '${formula}': ${e.message}`);
    throw e;
  }
  return text;
}

export const readData: MockTool<ExcelState> = {
  name: 'read_data_from_excel',
  description:
    'Read data from Excel worksheet with cell metadata including validation rules. Returns one line per row in the form "Sheet1: A1=value, B1=value".',
  annotations: { readOnlyHint: true },
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: { type: 'string', description: 'Name of worksheet' },
      start_cell: { type: 'string', default: 'A1', description: 'Starting cell (default "A1")' },
      end_cell: { type: 'string', description: 'Ending cell (optional; default: the last cell with data)' },
      preview_only: {
        type: 'boolean',
        default: false,
        description: 'Whether to return a preview of the first rows only',
      },
    },
    ['filepath', 'sheet_name'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const range = rangeArgs(args, sheet);
    const used = usedRange(sheet);
    const area = used ? intersect(range, used) : undefined;
    const size = rangeSize(range);
    const head = `${wb.path} / ${sheet.name} / ${rangeName(range)} (${size.rows} rows × ${size.cols} columns)`;
    if (!area) return `${head}\n${sheet.name}: (no data in ${rangeName(range)})`;
    let lines = listRange(sheet, area);
    const notes: string[] = [];
    if (args.preview_only === true && lines.length > PREVIEW_ROWS) {
      notes.push(
        `(preview: first ${PREVIEW_ROWS} of ${lines.length} rows; call again with preview_only=false for all rows)`,
      );
      lines = lines.slice(0, PREVIEW_ROWS);
    }
    const rules = sheet.validations.filter((v) => rangesOverlap(v.range, range)).map(describeValidation);
    if (rules.length > 0) notes.push(`Data validation: ${rules.join('; ')}`);
    return [head, ...lines, ...notes].join('\n');
  },
};

export const writeData: MockTool<ExcelState> = {
  name: 'write_data_to_excel',
  description:
    'Write data to Excel worksheet. Each inner list is one row written left to right from start_cell; strings starting with "=" are stored as formulas. Existing cells are overwritten.',
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: { type: 'string', description: 'Name of worksheet to write to' },
      data: {
        type: 'array',
        description: 'List of lists containing data (rows of cell values)',
        items: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
      },
      start_cell: { type: 'string', default: 'A1', description: 'Cell to start writing to (default "A1")' },
    },
    ['filepath', 'sheet_name', 'data'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const data = args.data as CellValue[][];
    if (data.length === 0 || data.every((r) => r.length === 0)) {
      throw new ToolFailure('data is empty: pass a list of rows, e.g. [["名称", "数量"], ["苹果", 120]]');
    }
    const start = rangeArgs(args, undefined).start;
    const width = Math.max(...data.map((r) => r.length));
    data.forEach((row, r) => {
      row.forEach((value, c) => {
        const pos = { row: start.row + r, col: start.col + c };
        if (typeof value === 'string' && value.startsWith('='))
          setCell(sheet, pos, { value: null, formula: formulaOrFail(value) });
        else setCell(sheet, pos, { value });
      });
    });
    touch(wb);
    const written: CellRange = { start, end: { row: start.row + data.length - 1, col: start.col + width - 1 } };
    return `Wrote ${data.length} row(s) × ${width} column(s) to ${wb.path} ${sheet.name}!${rangeName(written)}`;
  },
};

export const applyFormula: MockTool<ExcelState> = {
  name: 'apply_formula',
  description: 'Apply an Excel formula to a cell (with syntax validation) and return the calculated value.',
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: sheetName,
      cell: cellParam('Target cell, e.g. "B7"'),
      formula: { type: 'string', description: 'Excel formula starting with "=", e.g. "=SUM(B2:B6)"' },
    },
    ['filepath', 'sheet_name', 'cell', 'formula'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const pos = parseCell(String(args.cell), 'cell');
    const formula = formulaOrFail(String(args.formula));
    setCell(sheet, pos, { value: null, formula });
    touch(wb);
    const value = getCell(sheet, pos)?.value ?? null;
    return `Applied formula ${formula} to ${wb.path} ${sheet.name}!${rangeName({ start: pos, end: pos })}; calculated value: ${String(value)}`;
  },
};

export const validateFormula: MockTool<ExcelState> = {
  name: 'validate_formula_syntax',
  description:
    'Validate Excel formula syntax for a cell without applying it; reports the problem or the value it would produce.',
  annotations: { readOnlyHint: true },
  inputSchema: objectSchema(
    {
      filepath,
      sheet_name: sheetName,
      cell: cellParam('Cell the formula would go into, e.g. "B7"'),
      formula: { type: 'string', description: 'Excel formula to validate, e.g. "=SUM(B2:B6)"' },
    },
    ['filepath', 'sheet_name', 'cell', 'formula'],
  ),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    const pos = parseCell(String(args.cell), 'cell');
    const where = `${sheet.name}!${rangeName({ start: pos, end: pos })}`;
    const formula = String(args.formula).trim();
    if (!formula.startsWith('='))
      return `Formula '${formula}' is NOT valid for ${where}: a formula must start with "="`;
    let tree: ReturnType<typeof parseFormula>;
    try {
      tree = parseFormula(formula);
    } catch (e) {
      if (e instanceof FormulaSyntaxError) return `Formula '${formula}' is NOT valid for ${where}: ${e.message}`;
      throw e;
    }
    const unknown = unknownFunctions(tree);
    if (unknown.length > 0) {
      return `Formula ${formula} has valid syntax for ${where}, but uses functions this workbook cannot evaluate: ${unknown.join(', ')} (supported: ${SUPPORTED_FUNCTIONS.join(', ')})`;
    }
    return `Formula ${formula} is valid for ${where} (it would evaluate to ${String(evaluateFormula(formula, wb, sheet))})`;
  },
};

export const dataValidationInfo: MockTool<ExcelState> = {
  name: 'get_data_validation_info',
  description: 'Get all data validation rules of a worksheet (allowed values, numeric limits, input prompts).',
  annotations: { readOnlyHint: true },
  inputSchema: objectSchema({ filepath, sheet_name: sheetName }, ['filepath', 'sheet_name']),
  handler(args, state) {
    const { wb, sheet } = target(state, args);
    if (sheet.validations.length === 0) return `No data validation rules in ${wb.path} ${sheet.name}`;
    return [
      `Data validation rules in ${wb.path} ${sheet.name}:`,
      ...sheet.validations.map((v) => `- ${describeValidation(v)}`),
    ].join('\n');
  },
};

export const dataTools = [readData, writeData, applyFormula, validateFormula, dataValidationInfo];
