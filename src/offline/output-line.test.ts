import { describe, expect, it } from 'vitest';
import { readOutputLine, toOutputLine } from './output-line.js';

describe('readOutputLine (fast path) reads every line exactly as the zod schema does', () => {
  const values: unknown[] = [
    { case: 'a', output: 'x' },
    { id: 'a', raw: 'x', model: 'm', category: 'simple', bfcl_valid: true },
    { case: 'a', id: 'b', output: 'x', raw: 'y' },
    { case: 'a', output: '' },
    { case: '', output: 'x' },
    { id: 'a', raw: 'x', model: '' },
    { case: 'a' },
    { output: 'x' },
    { case: 'a', output: null },
    { case: 'a', output: 1 },
    { case: 1, output: 'x' },
    { case: 'a', output: 'x', model: null },
    { case: 'a', output: 'x', tool_calls: [{ name: 'f', arguments: '{}' }] },
    { case: 'a', turns: [{ output: 'x' }] },
    { case: 'a', output: 'x', turns: 'no' },
    ['a'],
    null,
    'line',
  ];
  for (const value of values) {
    it(JSON.stringify(value), () => {
      expect(readOutputLine(value)).toEqual(toOutputLine(value));
    });
  }
});

describe('tool calls in the shape each API logs them', () => {
  const callsOf = (tool_calls: unknown[]) => {
    const line = toOutputLine({ case: 'a', tool_calls });
    if (typeof line === 'string') throw new Error(line);
    return line.turns[0]?.toolCalls;
  };

  it('OpenAI Chat Completions, a plain {name, arguments}, and a Responses function_call item', () => {
    expect(
      callsOf([
        { id: 'call_9', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
        { name: 'g', arguments: { b: 2 } },
        { type: 'function_call', call_id: 'call_7', name: 'h', arguments: '{}' },
      ]),
    ).toEqual([
      { id: 'call_9', name: 'f', arguments: '{"a":1}' },
      { id: 'call_2', name: 'g', arguments: { b: 2 } },
      { id: 'call_7', name: 'h', arguments: '{}' },
    ]);
  });

  it('an Anthropic tool_use block keeps its input (the plain shape would have dropped it)', () => {
    expect(callsOf([{ type: 'tool_use', id: 'toolu_1', name: 'f', input: { path: 'a.xlsx' } }])).toEqual([
      { id: 'toolu_1', name: 'f', arguments: { path: 'a.xlsx' } },
    ]);
  });
});

describe('a line that is not a valid outputs line', () => {
  it('says what a tool call must look like', () => {
    expect(toOutputLine({ case: 'a', tool_calls: [{ foo: 1 }] })).toBe(
      'tool_calls.0: not a tool call; write {"name", "arguments"} (arguments a JSON string or object), {"function": {"name", "arguments"}} or {"name", "input"}',
    );
    expect(toOutputLine({ case: 'a', tool_calls: [{ name: 'f', arguments: 3 }] })).toMatch(
      /^tool_calls\.0: not a tool call/,
    );
  });
});
