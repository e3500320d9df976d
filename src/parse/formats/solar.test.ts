import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

const call = (id: string, name: string, args: string) =>
  `<|tool_call:begin|>${id}<|tool_call:name|>${name}<|tool_call:args|>${args}<|tool_call:end|>`;
const section = (...calls: string[]) => `<|tool_calls|>${calls.join('')}<|calls|>`;

describe('solar: <|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>', () => {
  it('reads one call, its id the call id', () => {
    const one = call('0', 'find_flight', '{"from": "OSL", "to": "BGO"}');
    const r = parse(section(one));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'solar',
      name: 'find_flight',
      id: '0',
      args: { from: 'OSL', to: 'BGO' },
      repaired: false,
      span: ['<|tool_calls|>'.length, '<|tool_calls|>'.length + one.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after prose, with prose after the section', () => {
    const r = parse(
      `Two legs.\n${section(call('0', 'find_flight', '{"to": "TRD"}'), call('1', 'find_flight', '{"to": "BOO"}'))} Searching.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args, c.id])).toEqual([
      ['solar', 'find_flight', { to: 'TRD' }, '0'],
      ['solar', 'find_flight', { to: 'BOO' }, '1'],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('reads the message layout with content first', () => {
    const r = parse(`<|content|>Let me look.\n<|end|><|begin|>assistant${section(call('7', 'list_airports', '{}'))}`);
    expect(r.calls[0]).toMatchObject({ via: 'solar', name: 'list_airports', args: {}, id: '7' });
  });

  it('finds the call after <|think|> reasoning; inside it, it is call-in-think', () => {
    const c = section(call('0', 'list_airports', '{}'));
    const after = parse(`<|think|>airports first<|end|><|begin|>assistant${c}`);
    expect(after.calls[0]).toMatchObject({ via: 'solar', name: 'list_airports' });
    expect(codes(after)).toEqual([]);
    const inside = parse(`<|think|>maybe ${c} later<|end|><|begin|>assistant<|content|>No need.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a call the reply cut off as truncated and repaired', () => {
    const r = parse('<|tool_calls|><|tool_call:begin|>0<|tool_call:name|>find_flight<|tool_call:args|>{"to": "EV');
    expect(r.calls[0]).toMatchObject({
      via: 'solar',
      name: 'find_flight',
      args: { to: 'EV' },
      truncated: true,
      repaired: true,
    });
  });

  it('flags a call whose end token is missing before the next call as truncated', () => {
    const r = parse(
      `<|tool_calls|><|tool_call:begin|>0<|tool_call:name|>a<|tool_call:args|>{"x": 1}${call('1', 'b', '{"y": 2}')}`,
    );
    expect(r.calls.map((c) => [c.name, c.truncated ?? false])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('keeps the tokens inside a string value', () => {
    const note = 'ends with <|tool_call:end|> then <|tool_call:begin|>';
    const r = parse(section(call('0', 'save_note', JSON.stringify({ note }))));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]?.args).toEqual({ note });
  });

  it('reports arguments that do not parse as an unparseable attempt', () => {
    const r = parse(section(call('0', 'find_flight', '["OSL", "BGO"]')));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['unparseable-arguments']);
  });
});

describe('solar: near misses', () => {
  it('prose that names the tokens is not a call', () => {
    const r = parse('Solar writes <|tool_call:begin|>, the id, then <|tool_call:name|> and the name.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${call('0', 'list_airports', '{}')}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });

  it('a harmony reply ending messages with <|end|> is not hidden as Solar reasoning', () => {
    const r = parse(
      '<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>commentary to=functions.list_airports <|constrain|>json<|message|>{}<|call|>',
    );
    expect(r.calls.map((c) => [c.via, c.name])).toEqual([['harmony', 'list_airports']]);
  });
});
