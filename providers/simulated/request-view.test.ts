import { describe, expect, it } from 'vitest';
import {
  excelTools,
  fullDetailsSystem,
  makeRequest,
  namesOnlySystem,
  nativeTools,
} from '../../tests/helpers/simulated-requests.js';
import { forbidsFences, mentions, viewOf } from './request-view.js';

describe('request view', () => {
  it('finds fence bans in the wordings renderers and case study 001 use, not in a prompt that shows a fence', () => {
    expect(forbidsFences(fullDetailsSystem(excelTools, { noFences: true }))).toBe(true);
    expect(forbidsFences('Output the tags directly, never inside a code block.')).toBe(true);
    expect(forbidsFences('不要使用 markdown 代码块包裹工具调用')).toBe(true);
    expect(forbidsFences(fullDetailsSystem(excelTools))).toBe(false);
    expect(forbidsFences(namesOnlySystem(excelTools))).toBe(false);
  });

  it('matches whole identifiers only', () => {
    expect(mentions('Available tools: read_data_from_excel, apply_formula', 'read_data_from_excel')).toBe(true);
    expect(mentions('Available tools: read_data_from_excel', 'data')).toBe(false);
    expect(mentions('Available tools: read_data_from_excel_v2', 'read_data_from_excel')).toBe(false);
  });

  it('answers for the text asked about, whatever was asked before (patterns are kept per word)', () => {
    for (let i = 0; i < 2; i++) {
      expect(mentions('call apply_formula now', 'apply_formula')).toBe(true);
      expect(mentions('call apply_formula_v2 now', 'apply_formula')).toBe(false);
      expect(mentions('call get.weather now', 'get.weather')).toBe(true);
      expect(mentions('call get_weather now', 'get.weather')).toBe(false);
    }
  });

  it('names-only reveals tool names but not parameter names; full details reveal both', () => {
    const names = viewOf(makeRequest({ system: namesOnlySystem(excelTools) }));
    expect(names.callName('read_data_from_excel')).toBe('read_data_from_excel');
    expect(names.callName('apply_formula')).toBeNull();
    expect(names.paramRevealed('read_data_from_excel', 'filepath')).toBe(false);
    expect(names.paramRevealed('read_data_from_excel', 'sheet_name')).toBe(false);
    const full = viewOf(makeRequest({ system: fullDetailsSystem(excelTools) }));
    expect(full.paramRevealed('read_data_from_excel', 'filepath')).toBe(true);
    expect(full.paramRevealed('read_data_from_excel', 'start_cell')).toBe(true);
    expect(full.chinese).toBe(true);
  });

  it('native: maps the catalog tool to its mangled rendered name and reads parameters from the schema', () => {
    const view = viewOf(
      makeRequest({ system: 'You can use tools.', protocol: 'native', tools: nativeTools(excelTools) }),
    );
    expect(view.callName('read_data_from_excel')).toBe('excel__read_data_from_excel');
    expect(view.paramRevealed('read_data_from_excel', 'sheet_name')).toBe(true);
    expect(view.paramRevealed('read_data_from_excel', 'data')).toBe(false);
    // A native request cannot call a tool that is only named in prose.
    const prose = viewOf(makeRequest({ system: namesOnlySystem(excelTools), protocol: 'native', tools: [] }));
    expect(prose.callName('read_data_from_excel')).toBeNull();
  });

  it('knows when results were fed back, in both feedback shapes', () => {
    const text = viewOf(
      makeRequest({
        system: '',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: '<tool_call>{}</tool_call>' },
          {
            role: 'user',
            content: '<tool_result name="a" error="true">boom</tool_result>\n<tool_result name="b">ok</tool_result>',
          },
        ],
      }),
    );
    expect(text.afterResults).toBe(true);
    expect(text.latest).toEqual([
      { name: 'a', content: 'boom', isError: true },
      { name: 'b', content: 'ok', isError: false },
    ]);
    const native = viewOf(
      makeRequest({
        system: '',
        protocol: 'native',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'x', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'call_1', name: 'x', content: 'r1' },
        ],
      }),
    );
    expect(native.afterResults).toBe(true);
    expect(native.results).toEqual([{ name: 'x', content: 'r1', isError: false }]);
    expect(viewOf(makeRequest({ system: '' })).afterResults).toBe(false);
  });
});
