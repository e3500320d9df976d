import { describe, expect, it } from 'vitest';
import type { RenderedTool } from '../src/contracts/model.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { excelTools, renderInput } from '../tests/fixtures/excel-catalog.js';
import { toolSearch, toolSearchOfPrompt } from './tool-search.js';

describe('tool-search renderer', () => {
  it('native: offers the search tool and the eager tools; a search loads tools under the names they always have', () => {
    const input = renderInput();
    const prepared = toolSearch.prepare({
      catalog: input.catalog,
      options: { k: 2, eager: ['write_data_to_excel', 'not_in_this_catalog'] },
      provider: { id: 'openai:m', kind: 'openai' },
    });
    const first = prepared.render(input.case);
    expect(first.protocol).toBe('native');
    expect(first.tools?.map((t) => t.name)).toEqual(['tool_search', 'write_data_to_excel']);
    expect(first.toolSearch).toEqual({
      tool: 'tool_search',
      method: 'bm25',
      k: 2,
      eager: ['write_data_to_excel'],
      deferred: excelTools.length - 1,
    });
    expect(first.system).toContain(`${excelTools.length - 1} more can be found with tool_search`);
    const read = excelTools.find((t) => t.name === 'read_data_from_excel') as ToolDef;
    const loaded = prepared.expand?.([read]);
    expect(loaded?.tools?.map((t: RenderedTool) => [t.name, t.target])).toEqual([
      ['read_data_from_excel', { server: 'excel', tool: 'read_data_from_excel' }],
    ]);
    expect(loaded?.text).toContain('read_data_from_excel');
    // read back from the prompt and the native tools alone, as the wire mock does
    expect(toolSearchOfPrompt(first.system, first.tools)).toEqual({ ...first.toolSearch, eager: [] });
  });

  it('text protocols: the search tool is described in the prompt; a search returns full definitions', () => {
    const input = renderInput();
    const prepared = toolSearch.prepare({
      catalog: input.catalog,
      options: { protocol: 'python-call', method: 'regex', k: 3 },
      provider: { id: 'sim:oracle', kind: 'sim' },
    });
    const first = prepared.render(input.case);
    expect(first.tools).toBeUndefined();
    expect(first.system).toContain('## tool_search');
    expect(first.system).toContain('- pattern (string, required)');
    expect(first.system).not.toContain('## read_data_from_excel');
    expect(toolSearchOfPrompt(first.system)).toEqual({ ...first.toolSearch, eager: [] });
    expect(first.toolSearch?.method).toBe('regex');
    const text = prepared.expand?.([excelTools[1] as ToolDef]).text ?? '';
    expect(text).toContain('## read_data_from_excel');
    expect(text).toContain('- filepath (string, required)');
    expect(toolSearchOfPrompt('You are a helpful assistant.')).toBeUndefined();
  });

  it('the search tool never takes the name of a catalog tool', () => {
    const input = renderInput();
    const clash = {
      ...input.catalog,
      tools: [...input.catalog.tools, { ...(excelTools[0] as ToolDef), name: 'tool_search' }],
    };
    const first = toolSearch
      .prepare({ catalog: clash, options: {}, provider: { id: 'x', kind: 'openai' } })
      .render(input.case);
    expect(first.toolSearch?.tool).toBe('tool_search_2');
  });
});
