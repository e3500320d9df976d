import { describe, expect, it } from 'vitest';
import type { Protocol } from '../../src/contracts/index.js';
import {
  excelTools,
  fullDetailsSystem,
  makeRequest,
  nativeTools,
  simulate,
} from '../../tests/helpers/simulated-requests.js';
import { simFactory } from './index.js';

const sim = simFactory.create('fence-wrapper', {}, { env: {} });
const FENCE = /```(\w*)\n/;

async function fenceStats(system: string, protocol: Protocol = 'xml-tags') {
  const kinds = new Map<string, number>();
  let fenced = 0;
  const n = 80;
  for (let i = 0; i < n; i++) {
    const res = await simulate(sim, makeRequest({ system, protocol, caseId: `f-${i}` }));
    const m = FENCE.exec(res.text);
    if (m) {
      fenced++;
      kinds.set(m[1] ?? '', (kinds.get(m[1] ?? '') ?? 0) + 1);
    } else if (protocol === 'xml-tags') {
      expect(res.text).toMatch(/^<tool_call>\{"name": "read_data_from_excel"/);
    }
  }
  return { rate: fenced / n, kinds };
}

describe('sim:fence-wrapper', () => {
  it('fences most calls, and far fewer when the prompt forbids fences', async () => {
    const allowed = await fenceStats(fullDetailsSystem(excelTools));
    const forbidden = await fenceStats(fullDetailsSystem(excelTools, { noFences: true }));
    expect(allowed.rate).toBeGreaterThan(0.65);
    expect(forbidden.rate).toBeLessThan(0.4);
    expect(forbidden.rate).toBeGreaterThan(0.05);
    expect([...allowed.kinds.keys()].sort()).toEqual(['json', 'tool_call', 'xml']);
  });

  it('keeps the call right inside the fence (case study 001 shape for ```tool_call)', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await simulate(sim, makeRequest({ system: fullDetailsSystem(excelTools), caseId: `f-${i}` }));
      if (!res.text.includes('```tool_call')) continue;
      const body = /```tool_call\n([\s\S]*?)\n```/.exec(res.text)?.[1] ?? '';
      expect(JSON.parse(body)).toEqual({
        id: 'call_001',
        tool_name: 'read_data_from_excel',
        arguments: { filepath: 'test.xlsx', sheet_name: 'Sheet1', start_cell: 'A1' },
      });
      expect(res.text).toContain('我需要使用 `read_data_from_excel` 工具');
      return;
    }
    throw new Error('no ```tool_call fence in 40 cases');
  });

  it('fences json and python-call replies too, and never touches native calls', async () => {
    expect((await fenceStats(fullDetailsSystem(excelTools), 'json')).rate).toBeGreaterThan(0.5);
    const py = await fenceStats(fullDetailsSystem(excelTools), 'python-call');
    expect([...py.kinds.keys()].sort()).toEqual(['python', 'tool_call']);
    for (let i = 0; i < 20; i++) {
      const res = await simulate(
        sim,
        makeRequest({ system: 'Tools.', protocol: 'native', tools: nativeTools(excelTools), caseId: `n-${i}` }),
      );
      expect(res.text).not.toContain('```');
      expect(res.toolCalls).toHaveLength(1);
    }
  });
});
