import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callText, connectInMemory } from '../../../tests/helpers/builtin-server-client.js';
import { EXCEL_TOOL_NAMES, excelServer } from './index.js';

let client: Client;
beforeEach(async () => {
  client = await connectInMemory(excelServer);
});
afterEach(async () => {
  await client.close();
});

const read = (args: Record<string, unknown>) => callText(client, 'read_data_from_excel', args);

describe('excel mock server: catalog', () => {
  it('lists exactly the 25 tools of case study 000, each with a compilable schema and described parameters', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...EXCEL_TOOL_NAMES]);
    expect(excelServer.toolCount).toBe(25);
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      const props = tool.inputSchema.properties as Record<string, { description?: string }>;
      for (const [name, prop] of Object.entries(props)) expect(prop.description, `${tool.name}.${name}`).toBeTruthy();
      for (const req of tool.inputSchema.required ?? [])
        expect(props, `${tool.name} requires ${req}`).toHaveProperty(req);
    }
    const readTool = tools.find((t) => t.name === 'read_data_from_excel');
    expect(readTool?.inputSchema.required).toEqual(['filepath', 'sheet_name']);
    const chart = tools.find((t) => t.name === 'create_chart')?.inputSchema.properties as Record<
      string,
      { enum?: string[] }
    >;
    expect(chart.chart_type?.enum).toEqual(['line', 'bar', 'pie', 'scatter', 'area']);
  });
});

describe('excel mock server: data', () => {
  it('reads fixture data in the "Sheet1: A1=名称, B1=数量" listing format', async () => {
    const r = await read({ filepath: 'test.xlsx', sheet_name: 'Sheet1' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Sheet1: A1=名称, B1=数量, C1=单价');
    expect(r.text).toContain('Sheet1: A2=苹果, B2=120, C2=5.5');
    expect(r.text).toContain('数量必须是 0 到 10000 之间的整数');
    const part = await read({ filepath: 'sales.xlsx', sheet_name: 'Q1', start_cell: 'B2', end_cell: 'C3' });
    expect(part.text.split('\n').slice(1)).toEqual(['Q1: B2=Laptop, C2=120', 'Q1: B3=Phone, C3=340']);
  });

  it('shows computed formula values, including cross-sheet sums', async () => {
    const r = await read({ filepath: 'sales.xlsx', sheet_name: 'Summary' });
    expect(r.text).toContain('C3=775500 (=SUM(Q1!D2:D6))');
    expect(r.text).toContain('C4=833100 (=SUM(Q2!D2:D6))');
  });

  it('preview_only returns the first rows and says so', async () => {
    const r = await read({ filepath: 'test.xlsx', sheet_name: 'Sheet1', preview_only: true });
    expect(r.text).toContain('Sheet1: A5=葡萄');
    expect(r.text).not.toContain('西瓜');
    expect(r.text).toContain('preview: first 5 of 6 rows');
  });

  it('a write is seen by a later read, and formulas recalculate', async () => {
    const w = await callText(client, 'write_data_to_excel', {
      filepath: 'test.xlsx',
      sheet_name: 'Sheet1',
      data: [['草莓', 40, 22]],
      start_cell: 'A7',
    });
    expect(w).toEqual({ text: 'Wrote 1 row(s) × 3 column(s) to test.xlsx Sheet1!A7:C7', isError: false });
    expect((await read({ filepath: 'test.xlsx', sheet_name: 'Sheet1' })).text).toContain(
      'Sheet1: A7=草莓, B7=40, C7=22',
    );
    const f = await callText(client, 'apply_formula', {
      filepath: 'test.xlsx',
      sheet_name: 'Sheet1',
      cell: 'B8',
      formula: '=SUM(B2:B7)',
    });
    expect(f.text).toContain('calculated value: 475');
    await callText(client, 'write_data_to_excel', {
      filepath: 'test.xlsx',
      sheet_name: 'Sheet1',
      data: [[100]],
      start_cell: 'B7',
    });
    expect(
      (await read({ filepath: 'test.xlsx', sheet_name: 'Sheet1', start_cell: 'B8', end_cell: 'B8' })).text,
    ).toContain('B8=535');
  });

  it('each create() starts from fresh fixtures', async () => {
    await callText(client, 'delete_worksheet', { filepath: 'test.xlsx', sheet_name: 'Sheet2' });
    expect((await read({ filepath: 'test.xlsx', sheet_name: 'Sheet2' })).isError).toBe(true);
    const other = await connectInMemory(excelServer);
    expect(
      (await callText(other, 'read_data_from_excel', { filepath: 'test.xlsx', sheet_name: 'Sheet2' })).text,
    ).toContain('一号仓');
    await other.close();
  });

  it('workbook and sheet tools change the structure', async () => {
    expect((await callText(client, 'create_workbook', { filepath: 'report.xlsx' })).isError).toBe(false);
    await callText(client, 'rename_worksheet', { filepath: 'report.xlsx', old_name: 'Sheet1', new_name: '汇总' });
    await callText(client, 'copy_worksheet', { filepath: 'sales.xlsx', source_sheet: 'Q1', target_sheet: 'Q1 copy' });
    const meta = JSON.parse((await callText(client, 'get_workbook_metadata', { filepath: 'report.xlsx' })).text);
    expect(meta.sheets).toEqual(['汇总']);
    const copy = await read({ filepath: 'sales.xlsx', sheet_name: 'Q1 copy' });
    expect(copy.text).toContain('Q1 copy: A6=East, B6=Tablet, C6=150, D6=67500');
  });

  it('pivot tables aggregate real data', async () => {
    const r = await callText(client, 'create_pivot_table', {
      filepath: 'sales.xlsx',
      sheet_name: 'Q1',
      data_range: 'A1:D6',
      rows: ['Region'],
      values: ['Revenue'],
    });
    expect(r.text.split('\n').slice(1)).toEqual([
      'Region | sum of Revenue',
      'North | 348000',
      'South | 360000',
      'East | 67500',
    ]);
    expect((await read({ filepath: 'sales.xlsx', sheet_name: 'Q1_pivot' })).text).toContain('A2=North, B2=348000');
  });

  it('row/column insertion and deletion shift cells', async () => {
    await callText(client, 'insert_rows', { filepath: 'test.xlsx', sheet_name: 'Sheet1', start_row: 2, count: 2 });
    expect(
      (await read({ filepath: 'test.xlsx', sheet_name: 'Sheet1', start_cell: 'A4', end_cell: 'A4' })).text,
    ).toContain('A4=苹果');
    await callText(client, 'delete_sheet_columns', { filepath: 'test.xlsx', sheet_name: 'Sheet1', start_col: 1 });
    expect(
      (await read({ filepath: 'test.xlsx', sheet_name: 'Sheet1', start_cell: 'A1', end_cell: 'B1' })).text,
    ).toContain('Sheet1: A1=数量, B1=单价');
    await callText(client, 'delete_range', {
      filepath: 'sales.xlsx',
      sheet_name: 'Q1',
      start_cell: 'A2',
      end_cell: 'D2',
    });
    expect((await read({ filepath: 'sales.xlsx', sheet_name: 'Q1', start_cell: 'A2', end_cell: 'D2' })).text).toContain(
      'B2=Phone',
    );
  });

  it('merging is tracked and unmerging needs an existing merge', async () => {
    await callText(client, 'merge_cells', {
      filepath: 'sales.xlsx',
      sheet_name: 'Q1',
      start_cell: 'A8',
      end_cell: 'D8',
    });
    expect((await callText(client, 'get_merged_cells', { filepath: 'sales.xlsx', sheet_name: 'Q1' })).text).toContain(
      'A8:D8',
    );
    const bad = await callText(client, 'unmerge_cells', {
      filepath: 'sales.xlsx',
      sheet_name: 'Q1',
      start_cell: 'A1',
      end_cell: 'B1',
    });
    expect(bad).toEqual({ isError: true, text: 'A1:B1 is not a merged range on Q1. Merged ranges: A8:D8' });
  });
});

describe('excel mock server: errors are tool results that say what is valid', () => {
  it.each([
    [
      { filepath: 'missing.xlsx', sheet_name: 'Sheet1' },
      'Available workbooks: test.xlsx, myfile.xlsx, sales.xlsx, budget.xlsx',
    ],
    [{ filepath: 'test.xlsx', sheet_name: 'Sheet3' }, 'Available sheets: Sheet1, Sheet2'],
    [{ filepath: 'test.xlsx', sheet_name: 'Sheet1', start_cell: 'A0' }, "Invalid start_cell 'A0': rows start at 1"],
    [
      { filepath: 'test.xlsx', sheet_name: 'Sheet1', end_cell: 'ZZZ' },
      "Invalid end_cell 'ZZZ': missing the row number",
    ],
    [{ filepath: 'test.xlsx', sheet_name: 42 }, '/sheet_name must be string'],
    [{ filepath: 'test.xlsx' }, "must have required property 'sheet_name'"],
  ])('read_data_from_excel %j', async (args, message) => {
    const r = await read(args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
  });

  it('enum errors list the allowed values; bad formulas explain the syntax problem', async () => {
    const chart = await callText(client, 'create_chart', {
      filepath: 'sales.xlsx',
      sheet_name: 'Q1',
      data_range: 'A1:D6',
      chart_type: 'column',
      target_cell: 'F2',
    });
    expect(chart.isError).toBe(true);
    expect(chart.text).toContain('"line", "bar", "pie", "scatter", "area"');
    const f = await callText(client, 'apply_formula', {
      filepath: 'test.xlsx',
      sheet_name: 'Sheet1',
      cell: 'B7',
      formula: '=SUM(B2:B6',
    });
    expect(f.isError).toBe(true);
    expect(f.text).toContain('missing closing parenthesis');
    const v = await callText(client, 'validate_formula_syntax', {
      filepath: 'test.xlsx',
      sheet_name: 'Sheet1',
      cell: 'C7',
      formula: '=AVERAGE(C2:C6)',
    });
    expect(v).toEqual({
      isError: false,
      text: 'Formula =AVERAGE(C2:C6) is valid for Sheet1!C7 (it would evaluate to 8.8)',
    });
  });

  it('pivot on an unknown field names the headers; unknown tools are errors too', async () => {
    const p = await callText(client, 'create_pivot_table', {
      filepath: 'sales.xlsx',
      sheet_name: 'Q1',
      data_range: 'A1:D6',
      rows: ['Area'],
      values: ['Revenue'],
    });
    expect(p.text).toContain("Field 'Area' is not a header of Q1!A1:D6. Headers: Region, Product, Units, Revenue");
    expect((await callText(client, 'read_excel', {})).isError).toBe(true);
  });
});
