import { describe, expect, it } from 'vitest';
import { renderers } from '../../renderers/index.js';
import type { ParsedCall } from '../../src/contracts/index.js';
import { acceptedCalls, parseResponse } from '../../src/parse/index.js';
import { renderOnce } from '../../tests/helpers/render-once.js';
import { excelTools, simulate, type ToolSketch } from '../../tests/helpers/simulated-requests.js';
import { simFactory } from './index.js';
import type { PersonaRequest } from './types.js';

const calls = [
  { tool: 'read_data_from_excel', args: { filepath: ['test.xlsx'], sheet_name: ['Sheet1'], start_cell: ['A1', ''] } },
];
const right = { filepath: 'test.xlsx', sheet_name: 'Sheet1', start_cell: 'A1' };

function catalogTool(t: ToolSketch) {
  const properties = Object.fromEntries(t.params.map((p) => [p.name, { type: p.type, description: p.description }]));
  const required = t.params.filter((p) => p.required).map((p) => p.name);
  return {
    server: 'excel',
    name: t.name,
    description: t.description,
    inputSchema: { type: 'object', properties, required },
  };
}

/** A request rendered by the project's real renderer, with the oracle the runner attaches. */
function rendered(renderer: keyof typeof renderers, options: Record<string, unknown>, caseId: string): PersonaRequest {
  const tools = excelTools.map(catalogTool);
  const req = renderOnce(renderers[renderer], {
    catalog: { tools, source: 'live', hash: 'h' },
    case: { id: 'read', prompt: '帮我读取 test.xlsx 文件的 Sheet1 工作表的内容', expect: { calls } },
    options,
    provider: { id: 'openai:gpt-4o-mini', kind: 'openai' },
  });
  return {
    ...req,
    oracle: { calls, noCall: false, answerMentions: [] },
    meta: { caseId, repeat: 0, seed: 7, renderer, turn: 0 },
  };
}

async function strictCalls(persona: string, req: PersonaRequest): Promise<ParsedCall[]> {
  const res = await simulate(simFactory.create(persona, {}, { env: {} }), req);
  return acceptedCalls(parseResponse(res, req.protocol), req.protocol);
}

describe('personas through the real renderers and the real parser', () => {
  it('the oracle is strictly parseable and right under every renderer and protocol', async () => {
    const cells: [keyof typeof renderers, Record<string, unknown>][] = [
      ['names-only', {}],
      ['full-details', {}],
      ['full-details', { protocol: 'json' }],
      ['full-details', { protocol: 'python-call' }],
      ['native-functions', {}],
    ];
    for (const [renderer, options] of cells) {
      const found = await strictCalls('oracle', rendered(renderer, options, 'o'));
      expect(
        found.map((c) => c.args),
        `${renderer} ${JSON.stringify(options)}`,
      ).toEqual([right]);
    }
  });

  it('the guesser gets arguments right far less often under names-only than under full-details', async () => {
    const rate = async (renderer: keyof typeof renderers) => {
      let ok = 0;
      for (let i = 0; i < 40; i++) {
        const [call] = await strictCalls('guesser', rendered(renderer, {}, `g-${i}`));
        const args = (call?.args ?? {}) as Record<string, unknown>;
        if (args.filepath === 'test.xlsx' && args.sheet_name === 'Sheet1') ok++;
      }
      return ok / 40;
    };
    const namesOnly = await rate('names-only');
    const full = await rate('full-details');
    expect(full).toBeGreaterThan(0.85);
    expect(namesOnly).toBeLessThan(0.5);
  });

  it('the fence-wrapper is caught by the strict detector less often when the prompt forbids fences', async () => {
    const missed = async (options: Record<string, unknown>) => {
      let n = 0;
      for (let i = 0; i < 40; i++)
        if ((await strictCalls('fence-wrapper', rendered('full-details', options, `f-${i}`))).length === 0) n++;
      return n / 40;
    };
    expect(await missed({})).toBeGreaterThan(0.6);
    expect(await missed({ noFences: true })).toBeLessThan(0.45);
  });
});
