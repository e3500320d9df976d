import type { JSONSchema } from '../../../src/contracts/json-schema.js';

/** Parameter schemas shared by several excel tools (the names of the real excel-mcp-server). */
export const filepath = { type: 'string', description: 'Path to the Excel file (e.g. "test.xlsx")' };
export const sheetName = { type: 'string', description: 'Name of the worksheet (e.g. "Sheet1")' };
export const cellParam = (description: string) => ({ type: 'string', description });
export const rowParam = (description: string) => ({ type: 'integer', minimum: 1, description });
export const countParam = {
  type: 'integer',
  minimum: 1,
  default: 1,
  description: 'Number of rows/columns (default 1)',
};

export function objectSchema(properties: Record<string, unknown>, required: string[]): JSONSchema {
  return { type: 'object', properties, required };
}
