import { describe, expect, it } from 'vitest';
import type { ExpectedCall } from '../../src/contracts/index.js';
import { seededRandom } from '../../src/util/rng.js';
import {
  excelTools,
  fullDetailsSystem,
  makeRequest,
  namesOnlySystem,
  nativeTools,
  simulate,
  type ToolSketch,
  xmlCalls,
} from '../../tests/helpers/simulated-requests.js';
import { simFactory } from './index.js';

const sim = simFactory.create('guesser', {}, { env: {} });
const PARAMS = [
  'filepath',
  'sheet_name',
  'start_cell',
  'query',
  'location',
  'unit',
  'base',
  'height',
  'user_id',
  'content',
];

/** Our own BFCL-style check: required params right, optional ones absent or right, nothing unknown. */
function argsCorrect(expected: ExpectedCall, args: Record<string, unknown>): boolean {
  const allowed = expected.args ?? {};
  for (const key of Object.keys(args)) if (!(key in allowed)) return false;
  return Object.entries(allowed).every(([p, values]) => (p in args ? values.includes(args[p]) : values.includes('')));
}

function generatedCase(i: number): { tool: ToolSketch; call: ExpectedCall } {
  const random = seededRandom('guesser-test', i);
  const names = [...PARAMS].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
  const optional = random() < 0.5 ? names.pop() : undefined;
  const args: Record<string, unknown[]> = Object.fromEntries(names.map((n, k) => [n, [`v${i}_${k}`]]));
  if (optional) args[optional] = ['', `o${i}`];
  const params = Object.keys(args).map((n) => ({
    name: n,
    type: 'string',
    required: n !== optional,
    description: `the ${n}`,
  }));
  return { tool: { name: `tool_${i}`, description: 'A tool.', params }, call: { tool: `tool_${i}`, args } };
}

async function correctRate(system: (t: ToolSketch[]) => string): Promise<number> {
  let correct = 0;
  const n = 60;
  for (let i = 0; i < n; i++) {
    const { tool, call } = generatedCase(i);
    const res = await simulate(
      sim,
      makeRequest({ system: system([tool]), caseId: `gen-${i}`, oracle: { calls: [call] } }),
    );
    const calls = xmlCalls(res.text);
    expect(calls).toHaveLength(1);
    if (calls[0] && argsCorrect(call, calls[0].arguments)) correct++;
  }
  return correct / n;
}

describe('sim:guesser', () => {
  it('is measurably worse when the prompt hides parameter names', async () => {
    const shown = await correctRate((t) => fullDetailsSystem(t));
    const hidden = await correctRate(namesOnlySystem);
    expect(shown).toBeGreaterThanOrEqual(0.85);
    expect(hidden).toBeGreaterThanOrEqual(0.1);
    expect(hidden).toBeLessThanOrEqual(0.5);
    expect(shown - hidden).toBeGreaterThan(0.4);
  });

  it('names-only: keeps the tool name and values, guesses names, drops optional parameters', async () => {
    const res = await simulate(sim, makeRequest({ system: namesOnlySystem(excelTools), caseId: 'excel-1' }));
    const [call] = xmlCalls(res.text);
    expect(call?.name).toBe('read_data_from_excel');
    expect(Object.values(call?.arguments ?? {}).sort()).toEqual(['Sheet1', 'test.xlsx']);
    expect(Object.keys(call?.arguments ?? {})).not.toContain('start_cell');
  });

  it('native schemas reveal parameter names, so it calls like the oracle', async () => {
    const res = await simulate(
      sim,
      makeRequest({ system: 'Tools available.', protocol: 'native', tools: nativeTools(excelTools) }),
    );
    expect(res.toolCalls[0]?.name).toBe('excel__read_data_from_excel');
    expect(Object.keys(JSON.parse(String(res.toolCalls[0]?.arguments)))).toContain('sheet_name');
  });

  it('answers in prose when the tool is not listed', async () => {
    const res = await simulate(sim, makeRequest({ system: namesOnlySystem([]), oracle: {} }));
    expect(res.text).not.toContain('<tool_call>');
    expect(res.toolCalls).toEqual([]);
  });

  it('is deterministic for (seed, case, repeat) and varies across repeats and seeds', async () => {
    const system = namesOnlySystem(excelTools);
    const once = await simulate(sim, makeRequest({ system, caseId: 'd', repeat: 0 }));
    const again = await simulate(sim, makeRequest({ system, caseId: 'd', repeat: 0 }));
    expect(again).toEqual(once);
    const texts = new Set<string>();
    for (let r = 0; r < 12; r++) {
      texts.add((await simulate(sim, makeRequest({ system, caseId: 'd', repeat: r }))).text);
      texts.add((await simulate(sim, makeRequest({ system, caseId: 'd', seed: 100 + r }))).text);
    }
    expect(texts.size).toBeGreaterThan(1);
  });
});
