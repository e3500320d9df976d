import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

describe('granite: <|tool_call|>[…]', () => {
  it('reads one call, the region from the token to the end of the list', () => {
    const text = '<|tool_call|>[{"name": "get_invoice", "arguments": {"invoice_id": "INV-2291"}}]';
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'granite',
      name: 'get_invoice',
      args: { invoice_id: 'INV-2291' },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after prose, with prose after the list', () => {
    const r = parse(
      'Fetching both.<|tool_call|>[{"name": "get_invoice", "arguments": {"invoice_id": "A"}}, ' +
        '{"name": "get_customer", "arguments": {"customer_id": 77}}] I will summarise them.',
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['granite', 'get_invoice', { invoice_id: 'A' }],
      ['granite', 'get_customer', { customer_id: 77 }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('reads one call object without the list', () => {
    const r = parse('<|tool_call|>{"name": "get_customer", "arguments": {"customer_id": 5}}');
    expect(r.calls[0]).toMatchObject({ via: 'granite', name: 'get_customer', args: { customer_id: 5 } });
  });

  it('finds the call after a <think> block; inside one it is call-in-think', () => {
    const call = '<|tool_call|>[{"name": "uptime", "arguments": {"host": "web-1"}}]';
    const after = parse(`<think>check the host</think>${call}`);
    expect(after.calls[0]).toMatchObject({ via: 'granite', name: 'uptime', args: { host: 'web-1' } });
    expect(codes(after)).toEqual([]);
    const inside = parse(`<think>${call}</think>It has been up for 40 days.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a list the reply cut off as truncated and repaired', () => {
    const r = parse('<|tool_call|>[{"name": "translate", "arguments": {"text": "Hyvää huomenta", "to": "e');
    expect(r.calls[0]).toMatchObject({
      via: 'granite',
      name: 'translate',
      args: { text: 'Hyvää huomenta', to: 'e' },
      truncated: true,
      repaired: true,
    });
    expect(codes(r)).toEqual(expect.arrayContaining(['truncated', 'repaired']));
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const sql = '```sql\nSELECT 1;\n```\n<|tool_call|> </tool_call> `q`';
    const r = parse(`<|tool_call|>${JSON.stringify([{ name: 'run_query', arguments: { sql } }])}`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'granite', name: 'run_query', args: { sql } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports a list that is not calls as a wrong-shape attempt', () => {
    const r = parse('<|tool_call|>[{"tool": "uptime"}]');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });

  it('is not confused with Hermes <tool_call>, which stays xml-tags', () => {
    const r = parse('<tool_call>{"name": "uptime", "arguments": {"host": "db"}}</tool_call>');
    expect(r.calls[0]).toMatchObject({ via: 'xml-tags', name: 'uptime' });
  });
});

describe('granite: near misses', () => {
  it('prose that mentions the token is not a call', () => {
    const r = parse('Granite puts <|tool_call|> in front of its JSON list of calls.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('the token with nothing after it is not a call', () => {
    const r = parse('Sure.<|tool_call|>');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse('For example: <|tool_call|>[{"name": "uptime", "arguments": {"host": "a"}}]');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });
});
