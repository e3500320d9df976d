import { parseRange } from './cells.js';
import { recalculate } from './formula.js';
import {
  type CellValue,
  type DataValidation,
  type ExcelState,
  newSheet,
  type Sheet,
  setCell,
  type Workbook,
} from './workbook.js';

const MODIFIED = '2024-06-30T09:00:00Z';

/** Builds a sheet from rows starting at A1; strings starting with `=` become formulas. */
export function sheetFromRows(name: string, rows: CellValue[][]): Sheet {
  const sheet = newSheet(name);
  rows.forEach((cells, r) => {
    cells.forEach((value, c) => {
      const pos = { row: r + 1, col: c + 1 };
      if (typeof value === 'string' && value.startsWith('=')) setCell(sheet, pos, { value: null, formula: value });
      else setCell(sheet, pos, { value });
    });
  });
  return sheet;
}

const range = (ref: string) => parseRange(ref).range;

function validation(ref: string, v: Omit<DataValidation, 'range'>): DataValidation {
  return { range: range(ref), ...v };
}

function workbook(path: string, sheets: Sheet[]): Workbook {
  const wb: Workbook = { path, sheets, tables: [], modified: MODIFIED };
  recalculate(wb);
  return wb;
}

function testXlsx(): Workbook {
  const sheet1 = sheetFromRows('Sheet1', [
    ['名称', '数量', '单价'],
    ['苹果', 120, 5.5],
    ['香蕉', 80, 3.2],
    ['橙子', 150, 4.8],
    ['葡萄', 60, 12],
    ['西瓜', 25, 18.5],
  ]);
  sheet1.validations.push(
    validation('B2:B100', { type: 'whole', rule: 'between 0 and 10000', prompt: '数量必须是 0 到 10000 之间的整数' }),
  );
  const sheet2 = sheetFromRows('Sheet2', [
    ['仓库', '城市', '容量'],
    ['一号仓', '上海', 5000],
    ['二号仓', '杭州', 3200],
  ]);
  return workbook('test.xlsx', [sheet1, sheet2]);
}

function myfileXlsx(): Workbook {
  const sheet1 = sheetFromRows('Sheet1', [
    ['姓名', '部门', '入职日期', '月薪'],
    ['张伟', '销售部', '2021-03-15', 8500],
    ['李娜', '技术部', '2019-07-01', 15000],
    ['王芳', '财务部', '2020-11-20', 9800],
    ['刘洋', '技术部', '2022-02-10', 12500],
  ]);
  sheet1.validations.push(
    validation('B2:B50', { type: 'list', rule: 'list', allowed: ['销售部', '技术部', '财务部', '人事部'] }),
    validation('D2:D50', { type: 'decimal', rule: 'greater than or equal to 0', prompt: '月薪不能为负数' }),
  );
  return workbook('myfile.xlsx', [sheet1]);
}

function salesXlsx(): Workbook {
  const header = ['Region', 'Product', 'Units', 'Revenue'];
  const q1 = sheetFromRows('Q1', [
    header,
    ['North', 'Laptop', 120, 144000],
    ['North', 'Phone', 340, 204000],
    ['South', 'Laptop', 95, 114000],
    ['South', 'Phone', 410, 246000],
    ['East', 'Tablet', 150, 67500],
  ]);
  const q2 = sheetFromRows('Q2', [
    header,
    ['North', 'Laptop', 135, 162000],
    ['North', 'Phone', 360, 216000],
    ['South', 'Laptop', 88, 105600],
    ['South', 'Phone', 455, 273000],
    ['East', 'Tablet', 170, 76500],
  ]);
  const summary = sheetFromRows('Summary', [
    ['Sales Summary 2024'],
    ['Quarter', 'Units', 'Revenue'],
    ['Q1', '=SUM(Q1!C2:C6)', '=SUM(Q1!D2:D6)'],
    ['Q2', '=SUM(Q2!C2:C6)', '=SUM(Q2!D2:D6)'],
  ]);
  summary.merged.push(range('A1:C1'));
  const wb = workbook('sales.xlsx', [q1, q2, summary]);
  wb.tables.push({ name: 'Q1Sales', sheet: 'Q1', range: range('A1:D6'), style: 'TableStyleMedium9' });
  return wb;
}

function budgetXlsx(): Workbook {
  const budget = sheetFromRows('2024预算', [
    ['部门', '预算', '实际支出', '差额'],
    ['市场部', 200000, 185000, '=B2-C2'],
    ['研发部', 500000, 520000, '=B3-C3'],
    ['行政部', 80000, 72000, '=B4-C4'],
    ['合计', '=SUM(B2:B4)', '=SUM(C2:C4)', '=SUM(D2:D4)'],
  ]);
  budget.validations.push(validation('B2:C4', { type: 'whole', rule: 'greater than or equal to 0' }));
  const notes = sheetFromRows('Notes', [['预算由财务部于 2024-01-05 批准'], ['Approved by finance on 2024-01-05']]);
  return workbook('budget.xlsx', [budget, notes]);
}

/** Fresh workbooks for one server instance: test.xlsx, myfile.xlsx, sales.xlsx, budget.xlsx. */
export function createExcelState(): ExcelState {
  const books = [testXlsx(), myfileXlsx(), salesXlsx(), budgetXlsx()];
  return { files: new Map(books.map((b) => [b.path, b])) };
}
