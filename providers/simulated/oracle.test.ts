import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/contracts/index.js';
import {
  excelTools,
  feedBack,
  fullDetailsSystem,
  makeRequest,
  namesOnlySystem,
  nativeTools,
  readSheet,
  simulate,
  xmlCalls,
} from '../../tests/helpers/simulated-requests.js';
import { simFactory } from './index.js';

const sim = simFactory.create('oracle', {}, { env: {} });
const sheet = '名称, 数量\n苹果, 3';

describe('sim:oracle', () => {
  it('emits exactly the expected call with first allowed values, omitting those whose first value is ""', async () => {
    for (const system of [fullDetailsSystem(excelTools), namesOnlySystem(excelTools)]) {
      const res = await simulate(sim, makeRequest({ system }));
      expect(xmlCalls(res.text)).toEqual([
        { name: 'read_data_from_excel', arguments: { filepath: 'test.xlsx', sheet_name: 'Sheet1', start_cell: 'A1' } },
      ]);
      expect(res.toolCalls).toEqual([]);
    }
  });

  it('native: calls the mangled rendered name, then answers citing the result facts', async () => {
    const req = makeRequest({
      system: 'Use the tools when needed.',
      protocol: 'native',
      tools: nativeTools(excelTools),
      oracle: { answerMentions: ['名称', '数量', '不存在'] },
    });
    const first = await simulate(sim, req);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0]?.name).toBe('excel__read_data_from_excel');
    expect(first.toolCalls[0]?.id).toBe('call_1');
    expect(JSON.parse(String(first.toolCalls[0]?.arguments))).toEqual({
      filepath: 'test.xlsx',
      sheet_name: 'Sheet1',
      start_cell: 'A1',
    });
    const second = await simulate(
      sim,
      feedBack(req, first, [], () => sheet),
    );
    expect(second.toolCalls).toEqual([]);
    expect(second.finishReason).toBe('stop');
    expect(second.text).toContain('名称');
    expect(second.text).toContain('数量');
    expect(second.text).toContain('苹果');
    expect(second.text).not.toContain('不存在');
  });

  it('sequence: one call per turn in order, then the answer', async () => {
    const write = {
      tool: 'write_data_to_excel',
      args: { filepath: ['out.xlsx'], sheet_name: ['S'], data: [[[1, 2]]] },
    };
    let req: ModelRequest = makeRequest({
      system: fullDetailsSystem(excelTools),
      prompt: 'Copy Sheet1 of test.xlsx into out.xlsx',
      oracle: { calls: [readSheet, write], order: 'sequence', answerMentions: ['done'] },
    });
    const seen: string[] = [];
    for (let turn = 0; turn < 5; turn++) {
      const res = await simulate(sim, req);
      const calls = xmlCalls(res.text);
      if (calls.length === 0) {
        expect(res.text).toContain('done');
        break;
      }
      expect(calls).toHaveLength(1);
      seen.push(calls[0]?.name ?? '');
      req = feedBack(req, res, [calls[0]?.name ?? ''], (n) => `${n} done`);
    }
    expect(seen).toEqual(['read_data_from_excel', 'write_data_to_excel']);
  });

  it('parallel: all calls in one reply (json and python-call protocols)', async () => {
    const calls = [readSheet, { tool: 'read_data_from_excel', args: { filepath: ['b.xlsx'], sheet_name: ['S2'] } }];
    const json = await simulate(
      sim,
      makeRequest({ system: fullDetailsSystem(excelTools), protocol: 'json', oracle: { calls } }),
    );
    expect(JSON.parse(json.text)).toHaveLength(2);
    const py = await simulate(
      sim,
      makeRequest({ system: fullDetailsSystem(excelTools), protocol: 'python-call', oracle: { calls } }),
    );
    expect(py.text).toBe(
      '[read_data_from_excel(filepath="test.xlsx", sheet_name="Sheet1", start_cell="A1"), ' +
        'read_data_from_excel(filepath="b.xlsx", sheet_name="S2")]',
    );
  });

  it('answers in prose for irrelevant cases and when the needed tool is not in the request', async () => {
    const irrelevant = await simulate(
      sim,
      makeRequest({
        system: fullDetailsSystem(excelTools),
        prompt: "What's the capital of France?",
        oracle: { noCall: true, calls: [], answerMentions: ['Paris'] },
      }),
    );
    expect(irrelevant.text).not.toContain('<tool_call>');
    expect(irrelevant.text).toContain('Paris');
    const hidden = await simulate(sim, makeRequest({ system: 'You are a helpful assistant.' }));
    expect(hidden.text).not.toContain('<tool_call>');
    expect(hidden.text.length).toBeGreaterThan(10);
  });

  it('reports a response envelope: estimated usage, latency 0, raw request summary and reply', async () => {
    const req = makeRequest({ system: fullDetailsSystem(excelTools) });
    const res = await simulate(sim, req);
    expect(res.latencyMs).toBe(0);
    expect(res.usage?.input).toBe(Math.ceil((req.system.length + (req.messages[0]?.content.length ?? 0)) / 4));
    expect(res.usage?.output).toBe(Math.ceil(res.text.length / 4));
    expect(res.raw.response).toEqual({ text: res.text, toolCalls: [] });
    expect(res.raw.request).toMatchObject({ caseId: 'read-sheet', protocol: 'xml-tags' });
  });
});
