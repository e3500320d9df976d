import { describe, expect, it } from 'vitest';
import { nativeToolNames } from '../../renderers/parts/tool-names.js';
import { caseOf, type ReplySpec, transcriptOf } from '../../tests/helpers/grader-fixtures.js';
import type { Protocol } from '../contracts/model.js';
import type { ToolDef } from '../contracts/tool.js';
import { graders } from './index.js';
import { allCalls } from './transcript-calls.js';

const schema = (props: Record<string, object>) => ({
  type: 'object',
  properties: props,
  required: Object.keys(props),
});
const factorial: ToolDef = {
  name: 'math.factorial',
  server: 'inline',
  description: 'Calculate the factorial of a given number.',
  inputSchema: schema({ number: { type: 'integer' } }),
};
const LONG = 'analytics.quarterly_revenue.by_region_and_product_line.with_currency_conversion';
const revenue: ToolDef = {
  name: LONG,
  server: 'inline',
  inputSchema: schema({ quarter: { type: 'string' }, currency: { type: 'string' } }),
};
const tools = [factorial, revenue];
const factorialOf5 = caseOf({ calls: [{ tool: 'math.factorial', args: { number: [5] } }] });

function grade(name: keyof typeof graders, reply: ReplySpec, protocol: Protocol, c = factorialOf5, offered = tools) {
  const transcript = transcriptOf([reply], protocol, offered);
  return graders[name].grade({ case: c, transcript, protocol, tools: offered });
}
const nativeCall = (name: string, args: object): ReplySpec => ({
  text: '',
  toolCalls: [{ id: 'call_1', name, arguments: JSON.stringify(args) }],
});

describe('a call under the provider-safe name of an offered tool is a call to that tool', () => {
  const RENAMED = 'called as math_factorial, the provider-safe form of math.factorial';
  const replies: Array<[string, ReplySpec, Protocol]> = [
    ['native tool_calls', nativeCall('math_factorial', { number: 5 }), 'native'],
    [
      '<tool_call> text',
      { text: '<tool_call>{"name": "math_factorial", "arguments": {"number": 5}}</tool_call>' },
      'xml-tags',
    ],
    ['a python call', { text: '[math_factorial(number=5)]' }, 'python-call'],
  ];
  for (const [shape, reply, protocol] of replies) {
    it(`${shape}: correct-arguments passes and says which name stood for which tool; parseable passes`, () => {
      const g = grade('correct-arguments', reply, protocol);
      expect(g).toMatchObject({
        pass: true,
        score: 1,
        reason: `made the 1 expected call(s): math.factorial(number=5); ${RENAMED}`,
        data: {
          hallucinated: [],
          renamed: [{ called: 'math_factorial', tool: 'math.factorial', how: 'provider-safe', server: 'inline' }],
        },
      });
      // the name plays no part in parseable: a strict detector for the protocol finds the call
      expect(grade('parseable', reply, protocol)).toMatchObject({ pass: true, data: { level: 'strict' } });
    });
  }

  it('a wrong value under the provider-safe name fails on the value, not as a hallucinated tool', () => {
    const g = grade('correct-arguments', nativeCall('math_factorial', { number: 6 }), 'native');
    expect(g).toMatchObject({ pass: false, data: { hallucinated: [] } });
    expect(g?.reason).toBe(`called math.factorial with number=6; expected one of [5]; ${RENAMED}`);
  });

  it('another case of the name is not the provider-safe form: a hallucinated tool', () => {
    const g = grade('correct-arguments', nativeCall('Math_Factorial', { number: 5 }), 'native');
    expect(g).toMatchObject({ pass: false, data: { hallucinated: ['Math_Factorial'] } });
    expect(g?.reason).toContain('called Math_Factorial, which is not one of the 2 tools offered (hallucinated tool)');
    expect(g?.data).not.toHaveProperty('renamed');
  });

  it('an exact name carries no rename note', () => {
    const g = grade('correct-arguments', nativeCall('math.factorial', { number: 5 }), 'native');
    expect(g).toMatchObject({ pass: true, reason: 'made the 1 expected call(s): math.factorial(number=5)' });
    expect(g?.data).not.toHaveProperty('renamed');
  });

  it('the hashed name a long tool gets at 64 characters, and its plain form at 128, resolve to it', () => {
    const expectRevenue = caseOf({ calls: [{ tool: LONG, args: { quarter: ['Q3'], currency: ['EUR'] } }] });
    const args = { quarter: 'Q3', currency: 'EUR' };
    for (const kind of ['openai', 'anthropic'] as const) {
      const name = nativeToolNames([revenue], kind)[0]?.name as string;
      expect(name).not.toBe(LONG);
      expect(name.length).toBe(kind === 'openai' ? 64 : LONG.length);
      const g = grade('correct-arguments', nativeCall(name, args), 'native', expectRevenue);
      expect(g).toMatchObject({ pass: true, data: { renamed: [{ called: name, tool: LONG }] } });
      expect(g?.reason).toContain(`called as ${name}, the provider-safe form of ${LONG}`);
    }
  });

  it('the provider-safe form of two offered tools is ambiguous: a hallucinated tool, the reason names both', () => {
    const weather = (name: string): ToolDef => ({ name, server: 'inline', inputSchema: schema({ city: {} }) });
    const offered = [weather('weather.get'), weather('weather/get')];
    const c = caseOf({ calls: [{ tool: 'weather.get', args: { city: ['Paris'] } }] });
    const g = grade('correct-arguments', nativeCall('weather_get', { city: 'Paris' }), 'native', c, offered);
    expect(g).toMatchObject({
      pass: false,
      score: 0,
      data: {
        hallucinated: ['weather_get'],
        ambiguous: [{ called: 'weather_get', candidates: ['weather.get', 'weather/get'] }],
      },
    });
    expect(g?.reason).toBe(
      'weather.get was never called; called weather_get, the provider-safe form of 2 offered tools (weather.get, weather/get): ambiguous, counted as a hallucinated tool',
    );
  });

  it('server__tool names the tool of that server, and the reason says so', () => {
    const read = (server: string): ToolDef => ({ name: 'read_file', server, inputSchema: schema({ path: {} }) });
    const offered = [read('coder'), read('fs')];
    const c = caseOf({ calls: [{ tool: 'read_file', args: { path: ['a.txt'] } }] });
    const g = grade('correct-arguments', nativeCall('fs__read_file', { path: 'a.txt' }), 'native', c, offered);
    expect(g).toMatchObject({
      pass: true,
      data: { renamed: [{ called: 'fs__read_file', tool: 'read_file', how: 'qualified', server: 'fs' }] },
    });
    expect(g?.reason).toContain('called as fs__read_file, read_file qualified by its server fs');
  });

  it('a name the request rendered maps through request.tools first, with no rename note', () => {
    const transcript = transcriptOf([nativeCall('math_factorial', { number: 5 })], 'native', tools);
    const turn = transcript.turns[0];
    if (!turn) throw new Error('no turn');
    turn.request.tools = [
      { name: 'math_factorial', description: '', parameters: {}, target: { server: 'inline', tool: 'math.factorial' } },
    ];
    const g = graders['correct-arguments'].grade({ case: factorialOf5, transcript, protocol: 'native', tools });
    expect(g).toMatchObject({ pass: true, reason: 'made the 1 expected call(s): math.factorial(number=5)' });
  });

  it('no-call names the tool a renamed call addresses', () => {
    const irrelevant = caseOf({ no_call: true });
    const g = grade('no-call', nativeCall('math_factorial', { number: 5 }), 'native', irrelevant);
    expect(g).toMatchObject({ pass: false, data: { calls: ['math.factorial'] } });
  });

  it('the calls are resolved per offered tools list: without tools a name stays as called', () => {
    const t = transcriptOf([nativeCall('math_factorial', { number: 5 })], 'native', tools);
    expect(allCalls(t).map((r) => r.tool)).toEqual(['math_factorial']);
    expect(allCalls(t, tools).map((r) => [r.tool, r.resolution?.how])).toEqual([['math.factorial', 'provider-safe']]);
    expect(allCalls(t)[0]?.tool).toBe('math_factorial');
  });
});
