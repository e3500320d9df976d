import { describe, expect, it } from 'vitest';
import {
  excelTools,
  feedBack,
  fullDetailsSystem,
  makeRequest,
  simulate,
} from '../../tests/helpers/simulated-requests.js';
import { simFactory } from './index.js';
import { perturb } from './noisy.js';

const sim = simFactory.create('noisy', {}, { env: {} });
const RIGHT =
  '<tool_call>{"name": "read_data_from_excel", "arguments": {"filepath":"test.xlsx","sheet_name":"Sheet1","start_cell":"A1"}}</tool_call>';

function classify(text: string): string {
  if (text === RIGHT) return 'right';
  if (text.includes('```')) return 'fenced';
  const inner = /<tool_call>([\s\S]*)<\/tool_call>/.exec(text)?.[1];
  if (inner === undefined) return 'prose';
  try {
    const args = (JSON.parse(inner) as { arguments: Record<string, unknown> }).arguments;
    return Object.keys(args).length < 3 ? 'missing-argument' : 'wrong-value';
  } catch {
    return 'malformed-json';
  }
}

describe('sim:noisy', () => {
  it('is mostly right, with a small mix of every call fault', async () => {
    const counts = new Map<string, number>();
    const n = 400;
    for (let i = 0; i < n; i++) {
      const res = await simulate(sim, makeRequest({ system: fullDetailsSystem(excelTools), caseId: `n-${i}` }));
      const kind = classify(res.text);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    const faulty = (n - (counts.get('right') ?? 0)) / n;
    expect(faulty).toBeGreaterThan(0.06);
    expect(faulty).toBeLessThan(0.2);
    expect([...counts.keys()].sort()).toEqual([
      'fenced',
      'malformed-json',
      'missing-argument',
      'prose',
      'right',
      'wrong-value',
    ]);
  });

  it('sometimes stops without answering after results', async () => {
    let dangling = 0;
    for (let i = 0; i < 150; i++) {
      const req = makeRequest({
        system: fullDetailsSystem(excelTools),
        caseId: `s-${i}`,
        oracle: { answerMentions: ['42'] },
      });
      const after = feedBack(req, await simulate(sim, req), ['read_data_from_excel'], () => 'total 42');
      const res = await simulate(sim, after);
      if (!res.text.includes('42')) {
        expect(res.text).toContain('等待工具返回结果');
        dangling++;
      }
    }
    expect(dangling).toBeGreaterThan(3);
    expect(dangling).toBeLessThan(40);
  });

  it('perturbs values within their type', () => {
    expect(perturb('Sheet1')).toBe('Sheet2');
    expect(perturb('test.xlsx')).toBe('test.xlsx_old');
    expect(perturb(5)).toBe(6);
    expect(perturb(true)).toBe(false);
    expect(perturb([1, 2])).toEqual([1]);
  });
});
