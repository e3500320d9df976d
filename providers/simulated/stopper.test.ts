import { describe, expect, it } from 'vitest';
import {
  excelTools,
  feedBack,
  fullDetailsSystem,
  makeRequest,
  nativeTools,
  simulate,
  xmlCalls,
} from '../../tests/helpers/simulated-requests.js';
import { simFactory } from './index.js';

const sim = simFactory.create('stopper', {}, { env: {} });

describe('sim:stopper', () => {
  it('calls correctly, then answers the results with a dangling waiting line and no facts (case study 002)', async () => {
    const req = makeRequest({ system: fullDetailsSystem(excelTools), oracle: { answerMentions: ['名称'] } });
    const first = await simulate(sim, req);
    expect(xmlCalls(first.text)).toEqual([
      { name: 'read_data_from_excel', arguments: { filepath: 'test.xlsx', sheet_name: 'Sheet1', start_cell: 'A1' } },
    ]);
    expect(first.text.endsWith('(等待工具返回结果...)')).toBe(true);
    const second = await simulate(
      sim,
      feedBack(req, first, ['read_data_from_excel'], () => '名称, 数量'),
    );
    expect(second.text).toContain('(等待工具返回结果...)');
    expect(second.text).not.toContain('名称');
    expect(second.text).not.toContain('<tool_call>');
  });

  it('never continues a multi-step task, and waits in English for English prompts (native)', async () => {
    const req = makeRequest({
      system: 'Tools.',
      protocol: 'native',
      tools: nativeTools(excelTools),
      prompt: 'Read Sheet1 of test.xlsx, then copy it',
      oracle: {
        order: 'sequence',
        calls: [
          { tool: 'read_data_from_excel', args: { filepath: ['test.xlsx'], sheet_name: ['Sheet1'] } },
          { tool: 'write_data_to_excel', args: { filepath: ['b.xlsx'], sheet_name: ['Sheet1'], data: [[['x']]] } },
        ],
      },
    });
    const first = await simulate(sim, req);
    expect(first.toolCalls.map((c) => c.name)).toEqual(['excel__read_data_from_excel']);
    const second = await simulate(
      sim,
      feedBack(req, first, [], () => 'rows'),
    );
    expect(second.toolCalls).toEqual([]);
    expect(second.text).toContain('Waiting for the tool result...');
  });
});
