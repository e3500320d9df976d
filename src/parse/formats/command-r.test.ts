import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';
import { findReasoningChannels } from './reasoning-channels.js';

const action = (json: string) => `<|START_ACTION|>${json}<|END_ACTION|>`;

describe('command-r: <|START_ACTION|>[…]<|END_ACTION|>', () => {
  it('reads one call with its tool_call_id, the region from token to token', () => {
    const text = action(
      '[\n  {"tool_call_id": "0", "tool_name": "search_kb", "parameters": {"query": "refund policy"}}\n]',
    );
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'command-r',
      name: 'search_kb',
      id: '0',
      args: { query: 'refund policy' },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after its thinking, which is reasoning', () => {
    const r = parse(
      '<|START_THINKING|>Two lookups, maybe <tool_call>{"name": "x", "arguments": {}}</tool_call> later.<|END_THINKING|>' +
        action(
          '[{"tool_call_id": "0", "tool_name": "search_kb", "parameters": {"query": "returns"}}, ' +
            '{"tool_call_id": "1", "tool_name": "search_kb", "parameters": {"query": "shipping"}}]',
        ),
    );
    expect(r.calls.map((c) => [c.via, c.name, c.id, c.args])).toEqual([
      ['command-r', 'search_kb', '0', { query: 'returns' }],
      ['command-r', 'search_kb', '1', { query: 'shipping' }],
    ]);
    expect(codes(r)).toEqual(['call-in-think', 'multiple-calls']);
  });

  it('reads the reasoning as such when the prompt opened it (only <|END_THINKING|> in the reply)', () => {
    const text = 'I should look this up.<|END_THINKING|><|START_RESPONSE|>Done.<|END_RESPONSE|>';
    expect(findReasoningChannels(text)).toEqual([[0, text.indexOf('<|START_RESPONSE|>')]]);
  });

  it('finds the call after prose and a <think> block; inside one it is call-in-think', () => {
    const call = action('[{"tool_call_id": "0", "tool_name": "get_order", "parameters": {"id": 9}}]');
    const after = parse(`<think>order</think>Let me look.${call}`);
    expect(after.calls[0]).toMatchObject({ via: 'command-r', name: 'get_order', args: { id: 9 } });
    expect(codes(after)).toEqual([]);
    const inside = parse(`<think>${call}</think>Shipped.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a call without <|END_ACTION|> as truncated; cut JSON also repaired', () => {
    const missingEnd = parse(
      '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_order", "parameters": {"id": 9}}]',
    );
    expect(missingEnd.calls[0]).toMatchObject({ name: 'get_order', truncated: true, repaired: false });
    const cut = parse('<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_order", "parameters": {"id": 9');
    expect(cut.calls[0]).toMatchObject({ name: 'get_order', args: { id: 9 }, truncated: true, repaired: true });
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const reply = '```\nok\n```\n<|END_ACTION|> <tool_call> `r`';
    const r = parse(action(JSON.stringify([{ tool_call_id: '0', tool_name: 'reply_ticket', parameters: { reply } }])));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'command-r', name: 'reply_ticket', args: { reply } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports a body that is not a call list as a wrong-shape attempt', () => {
    const r = parse(action('[{"tool_call_id": "0", "action": "get_order"}]'));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });

  it("Command R+'s Action: ```json fence is a fenced JSON call list", () => {
    const r = parse(
      'Action: ```json\n[\n  {"tool_name": "internet_search", "parameters": {"query": "northern lights forecast"}}\n]\n```',
    );
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'fenced',
      fence: 'json',
      inner: 'json',
      name: 'internet_search',
      args: { query: 'northern lights forecast' },
    });
  });
});

describe('command-r: near misses', () => {
  it('prose that mentions the tokens is not a call', () => {
    const r = parse('Command R7B wraps its actions in <|START_ACTION|> and <|END_ACTION|> tokens.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('the tokens with no call between them are not a call', () => {
    const r = parse('<|START_ACTION|><|END_ACTION|><|START_RESPONSE|>No tool needed.<|END_RESPONSE|>');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });
});
