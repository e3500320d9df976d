import { describe, expect, it } from 'vitest';
import type { ToolDef } from '../contracts/tool.js';
import { Bm25Index, regexSearch, safePattern, similarity, words } from './lexical-search.js';

const tool = (name: string, description: string, params: Record<string, string> = {}): ToolDef => ({
  name,
  description,
  server: 's',
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(Object.entries(params).map(([k, d]) => [k, { type: 'string', description: d }])),
  },
});

const tools = [
  tool('read_data_from_excel', 'Read cells of an Excel worksheet', { filepath: 'Path of the workbook' }),
  tool('write_data_to_excel', 'Write rows into an Excel worksheet'),
  tool('send_email', 'Send an email message', { to: 'Recipients' }),
  tool('get_weather', 'Forecast for a city'),
];

describe('lexical tool search', () => {
  it('splits identifiers, drops common words and plurals', () => {
    expect(words('readDataFromExcel files of the workbook')).toEqual(['read', 'data', 'excel', 'file', 'workbook']);
  });

  it('BM25 ranks by name, description and parameters; deterministic, at most k', () => {
    const index = new Bm25Index(tools);
    expect(index.search('read excel data', 2).map((h) => h.tool.name)).toEqual([
      'read_data_from_excel',
      'write_data_to_excel',
    ]);
    expect(index.search('workbook path', 5).map((h) => h.tool.name)).toEqual(['read_data_from_excel']);
    expect(index.search('recipients', 5).map((h) => h.tool.name)).toEqual(['send_email']);
    expect(index.search('nothing matches this', 5)).toEqual([]);
  });

  it('a regular expression matches names first; a pattern that could backtrack without bound is refused', () => {
    const re = safePattern('(?i)EXCEL');
    expect(re).toBeInstanceOf(RegExp);
    expect(regexSearch(tools, re as RegExp, 5).map((h) => h.tool.name)).toEqual([
      'read_data_from_excel',
      'write_data_to_excel',
    ]);
    for (const bad of ['(a+)+$', '(a|ab)*c', '((x)*)+', 'a.*b.*c.*d', '(?=x)y', '(a)\\1', 'x'.repeat(201), '([)']) {
      expect(typeof safePattern(bad), bad).toBe('string');
    }
    expect(safePattern('get_.*_data')).toBeInstanceOf(RegExp);
    expect(safePattern('[(+)]+')).toBeInstanceOf(RegExp);
  });

  it('similarity: look-alikes score high, unrelated tools low', () => {
    const [read, write, email] = tools as [ToolDef, ToolDef, ToolDef];
    expect(similarity(read, read)).toBeCloseTo(1);
    expect(similarity(read, write)).toBeGreaterThan(similarity(read, email));
    expect(similarity(read, email)).toBe(0);
  });
});
