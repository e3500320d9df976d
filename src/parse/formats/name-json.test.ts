import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';
import { acceptedCalls } from '../index.js';

const tag = (body: string) => `<tool_call>${body}</tool_call>`;

describe('name-json: a tool name line, then a JSON object, inside a call tag', () => {
  it('reads one call in <tool_call>, never accepted by a strict Hermes detector', () => {
    const text = tag('convert_currency\n{"amount": 120, "from": "EUR", "to": "NOK"}');
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'name-json',
      name: 'convert_currency',
      args: { amount: 120, from: 'EUR', to: 'NOK' },
      rawArgs: '{"amount": 120, "from": "EUR", "to": "NOK"}',
      repaired: false,
      span: [0, text.length],
    });
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });

  it('reads several tags after prose, with prose after them', () => {
    const r = parse(
      `Converting twice.\n${tag('convert_currency\n{"amount": 1}')}\n${tag('get_rate\n{"pair": "EURNOK"}')}\nDone.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['name-json', 'convert_currency', { amount: 1 }],
      ['name-json', 'get_rate', { pair: 'EURNOK' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('reads the name line with space around it and an empty object', () => {
    const r = parse(tag('\n  list_rates  \n  {}\n'));
    expect(r.calls[0]).toMatchObject({ via: 'name-json', name: 'list_rates', args: {} });
  });

  it('reads the same shape in a ```tool_call fence, reported as fenced', () => {
    const r = parse('```tool_call\nget_rate\n{"pair": "USDJPY"}\n```');
    expect(r.calls[0]).toMatchObject({ via: 'fenced', inner: 'name-json', name: 'get_rate', args: { pair: 'USDJPY' } });
  });

  it('finds the call after a <think> block; inside one it is call-in-think', () => {
    const c = tag('list_rates\n{}');
    expect(parse(`<think>rates first</think>${c}`).calls[0]).toMatchObject({ via: 'name-json', name: 'list_rates' });
    const inside = parse(`<think>${c}</think>Rates are stable.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a call the reply cut off as truncated and repaired', () => {
    const r = parse('<tool_call>convert_currency\n{"amount": 50, "to": "SE');
    expect(r.calls[0]).toMatchObject({
      via: 'name-json',
      name: 'convert_currency',
      args: { amount: 50, to: 'SE' },
      truncated: true,
    });
    expect(r.calls[0]?.repaired).toBe(true);
  });

  it('keeps a close tag inside a string value', () => {
    const r = parse(tag('save_note\n{"text": "end with </tool_call> please"}'));
    expect(r.calls[0]).toMatchObject({ via: 'name-json', args: { text: 'end with </tool_call> please' } });
  });

  it('reports arguments that are not a JSON object as unparseable', () => {
    const r = parse(tag('convert_currency\n{"amount": 1}}} oops'));
    expect(r.calls.filter((c) => c.via === 'name-json')).toEqual([]);
    expect(codes(r)).toContain('wrong-shape');
  });
});

describe('name-json: near misses', () => {
  it('a word on a line then JSON in a plain fence is data, not a call', () => {
    const r = parse('```\nExample\n{"amount": 1}\n```');
    expect(r.calls).toEqual([]);
  });

  it('the Hermes JSON body stays xml-tags', () => {
    const r = parse(tag('{"name": "get_rate", "arguments": {"pair": "EURUSD"}}'));
    expect(r.calls[0]).toMatchObject({ via: 'xml-tags', name: 'get_rate' });
  });

  it('GLM pairs after the name line stay glm', () => {
    const r = parse(tag('get_rate\n<arg_key>pair</arg_key>\n<arg_value>EURUSD</arg_value>\n'));
    expect(r.calls[0]).toMatchObject({ via: 'glm', name: 'get_rate', args: { pair: 'EURUSD' } });
  });
});
