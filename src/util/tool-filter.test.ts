import { describe, expect, it } from 'vitest';
import type { ToolDef } from '../contracts/tool.js';
import { filterTools } from './tool-filter.js';

const tool = (server: string, name: string): ToolDef => ({ server, name, inputSchema: { type: 'object' } });
const catalog = [
  tool('excel', 'read_data_from_excel'),
  tool('excel', 'write_data_to_excel'),
  tool('excel', 'format_range'),
  tool('coder', 'read_file'),
  tool('coder', 'execute_command'),
];
const names = (tools: ToolDef[]) => tools.map((t) => `${t.server}/${t.name}`);

describe('filterTools', () => {
  it('returns everything when no filter applies', () => {
    expect(filterTools(catalog)).toEqual(catalog);
    expect(filterTools(catalog, undefined, {})).toEqual(catalog);
    expect(filterTools(catalog, { include: [] })).toEqual(catalog);
  });

  it('include narrows by tool-name glob', () => {
    expect(names(filterTools(catalog, { include: ['read_*'] }))).toEqual([
      'excel/read_data_from_excel',
      'coder/read_file',
    ]);
  });

  it('matches server/name globs', () => {
    expect(names(filterTools(catalog, { include: ['coder/*'] }))).toEqual(['coder/read_file', 'coder/execute_command']);
    expect(names(filterTools(catalog, { exclude: ['excel/**'] }))).toEqual([
      'coder/read_file',
      'coder/execute_command',
    ]);
    expect(names(filterTools(catalog, { include: ['*/read_*'] }))).toEqual([
      'excel/read_data_from_excel',
      'coder/read_file',
    ]);
  });

  it('exclude removes, and include then exclude combine within one filter', () => {
    expect(names(filterTools(catalog, { include: ['*_excel', 'format_*'], exclude: ['write_*'] }))).toEqual([
      'excel/read_data_from_excel',
      'excel/format_range',
    ]);
  });

  it('applies filters in order: suite then case', () => {
    const suite = { exclude: ['execute_command'] };
    const caseFilter = { include: ['{read,execute}_*'] };
    expect(names(filterTools(catalog, suite, caseFilter))).toEqual(['excel/read_data_from_excel', 'coder/read_file']);
    // A case cannot re-add what the suite removed.
    expect(names(filterTools(catalog, suite, { include: ['execute_command'] }))).toEqual([]);
  });

  it('supports brace and extglob patterns from picomatch', () => {
    expect(names(filterTools(catalog, { include: ['!(*excel*)'] }))).toEqual([
      'excel/format_range',
      'coder/read_file',
      'coder/execute_command',
    ]);
  });
});
