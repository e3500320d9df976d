import type { BuiltinServer } from '../../../src/contracts/mock-server.js';
import { ToolgaugeError } from '../../../src/errors.js';
import { createMockServer, type MockTool } from '../tool-kit.js';
import { createExcelState } from './fixtures.js';
import { excelStateView } from './state-view.js';
import { dataTools } from './tools-data.js';
import { formatTools } from './tools-format.js';
import { objectTools } from './tools-objects.js';
import { rangeTools } from './tools-range.js';
import { rowTools } from './tools-rows.js';
import { workbookTools } from './tools-workbook.js';
import type { ExcelState } from './workbook.js';

const byName = new Map<string, MockTool<ExcelState>>(
  [...dataTools, ...rangeTools, ...workbookTools, ...formatTools, ...objectTools, ...rowTools].map((t) => [t.name, t]),
);

/** The 25 tools of the Excel agent in case study 000, in the order its prompt listed them. */
export const EXCEL_TOOL_NAMES = [
  'read_data_from_excel',
  'write_data_to_excel',
  'apply_formula',
  'validate_formula_syntax',
  'format_range',
  'create_workbook',
  'create_worksheet',
  'create_chart',
  'create_pivot_table',
  'create_table',
  'copy_worksheet',
  'delete_worksheet',
  'rename_worksheet',
  'get_workbook_metadata',
  'merge_cells',
  'unmerge_cells',
  'get_merged_cells',
  'copy_range',
  'delete_range',
  'validate_excel_range',
  'get_data_validation_info',
  'insert_rows',
  'insert_columns',
  'delete_sheet_rows',
  'delete_sheet_columns',
] as const;

export const excelTools: MockTool<ExcelState>[] = EXCEL_TOOL_NAMES.map((name) => {
  const tool = byName.get(name);
  if (!tool) throw new ToolgaugeError('INTERNAL', `excel mock server: tool ${name} has no implementation`);
  return tool;
});

export const excelServer: BuiltinServer = {
  name: 'excel',
  description:
    'Excel workbook tools (the 25 tools of excel-mcp-server) over in-memory workbooks: test.xlsx, myfile.xlsx, sales.xlsx, budget.xlsx',
  toolCount: excelTools.length,
  create: () =>
    createMockServer<ExcelState>({
      name: 'excel-mcp',
      version: '1.0.0',
      instructions: 'Workbooks available: test.xlsx, myfile.xlsx, sales.xlsx, budget.xlsx. Cells use A1 notation.',
      tools: excelTools,
      createState: createExcelState,
      stateView: excelStateView,
    }),
};
