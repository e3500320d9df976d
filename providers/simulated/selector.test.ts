import { describe, expect, it } from 'vitest';
import type { ModelRequest, RenderedTool } from '../../src/contracts/index.js';
import { selectionChance } from './selection-curve.js';
import { selector } from './selector.js';
import type { PersonaRequest } from './types.js';

const tool = (name: string, description: string): RenderedTool => ({
  name,
  description,
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  target: { server: 's', tool: name },
});

const expected = { tool: 'read_report', args: { path: ['a.txt'] } };

function request(tools: RenderedTool[], caseId: string, extra: Partial<ModelRequest> = {}): PersonaRequest {
  return {
    system: 'You are a helpful AI assistant.',
    messages: [{ role: 'user', content: 'Read a.txt' }],
    tools,
    protocol: 'native',
    oracle: {
      calls: [expected],
      noCall: false,
      answerMentions: [],
      catalog: tools.map((t) => ({ name: t.target.tool, description: t.description })),
    },
    meta: { caseId, repeat: 0, seed: 1, renderer: 'r', turn: 0 },
    ...extra,
  };
}

const right = tool('read_report', 'Read a report file and return its text');
const lookAlike = tool('read_report_draft', 'Read a draft report file and return its text');
const others = (n: number) => Array.from({ length: n }, (_, i) => tool(`unrelated_${i}`, `Book flight number ${i}`));

/** Share of cases whose first call names the right tool. */
function rightShare(tools: RenderedTool[], cases = 200): number {
  let n = 0;
  for (let i = 0; i < cases; i++) {
    const reply = selector.reply(request(tools, `s/case-${i}`));
    if (reply.toolCalls[0]?.name === 'read_report') n++;
  }
  return n / cases;
}

describe('sim:selector', () => {
  it('its chance falls as more tools are shown and as the closest one looks more alike', () => {
    expect(selectionChance(10, 0)).toBeGreaterThan(0.99);
    expect(selectionChance(50, 0)).toBeGreaterThan(selectionChance(100, 0));
    expect(selectionChance(100, 0)).toBeGreaterThan(selectionChance(300, 0));
    expect(selectionChance(50, 0.9)).toBeLessThan(selectionChance(50, 0.1));
    expect(selectionChance(150, 0)).toBeCloseTo(0.5);
  });

  it('picks the look-alike more often in a crowded request; never one that is not shown', () => {
    const few = rightShare([right, lookAlike, ...others(3)]);
    const many = rightShare([right, lookAlike, ...others(150)]);
    expect(few).toBeGreaterThan(0.95);
    expect(many).toBeLessThan(0.75);
    for (let i = 0; i < 50; i++) {
      const name = selector.reply(request([right, lookAlike, ...others(150)], `s/case-${i}`)).toolCalls[0]?.name;
      expect(['read_report', 'read_report_draft']).toContain(name);
    }
  });

  it('with a tool search, searches first for the tool it needs', () => {
    const search = { ...tool('tool_search', 'Find tools'), target: { server: '', tool: 'tool_search' } };
    const reply = selector.reply(
      request([search], 's/case-1', {
        toolSearch: { tool: 'tool_search', method: 'bm25', k: 5, eager: [], deferred: 150 },
      }),
    );
    expect(reply.toolCalls).toEqual([{ id: 'call_1', name: 'tool_search', arguments: '{"query":"read report"}' }]);
  });
});
