import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

const block = (calls: string) => `<|tools_prefix|>${calls}<|tools_suffix|>`;

describe('apertus: <|tools_prefix|>[{"name": {…}}]<|tools_suffix|>', () => {
  it('reads one call keyed by the tool name, the region from the prefix to the suffix', () => {
    const text = block('[{"book_room": {"room": "Sølvberg", "hours": 2}}]');
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'apertus',
      name: 'book_room',
      args: { room: 'Sølvberg', hours: 2 },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after prose, with prose after the suffix', () => {
    const r = parse(
      `Let me book it and tell the team. ${block('[{"book_room": {"room": "A1"}}, {"post_message": {"channel": "ops", "text": "booked"}}]')} Done shortly.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['apertus', 'book_room', { room: 'A1' }],
      ['apertus', 'post_message', { channel: 'ops', text: 'booked' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('reads a single object without the list, and a call with no arguments', () => {
    expect(parse(block('{"list_rooms": {}}')).calls[0]).toMatchObject({ via: 'apertus', name: 'list_rooms', args: {} });
    expect(parse(block('[{"list_rooms": null}]')).calls[0]).toMatchObject({ name: 'list_rooms', args: {} });
  });

  it('finds the call after Apertus reasoning; a call inside the reasoning is call-in-think', () => {
    const call = block('[{"book_room": {"room": "B2"}}]');
    const after = parse(`<|inner_prefix|>The user wants B2.<|inner_suffix|>${call}`);
    expect(after.calls[0]).toMatchObject({ via: 'apertus', name: 'book_room' });
    expect(codes(after)).toEqual([]);
    const inside = parse(`<|inner_prefix|>maybe ${call}<|inner_suffix|>B2 is free all day.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a list the reply cut off as truncated and repaired', () => {
    const r = parse('<|tools_prefix|>[{"book_room": {"room": "Fjord", "hours": 3');
    expect(r.calls[0]).toMatchObject({
      via: 'apertus',
      name: 'book_room',
      args: { room: 'Fjord', hours: 3 },
      truncated: true,
    });
    expect(r.calls[0]?.repaired).toBe(true);
  });

  it('flags a whole list without its suffix token as truncated', () => {
    const r = parse('<|tools_prefix|>[{"list_rooms": {}}]');
    expect(r.calls[0]).toMatchObject({ via: 'apertus', name: 'list_rooms', truncated: true, repaired: false });
  });

  it('keeps the tokens, a fence and tag-like text inside a string value', () => {
    const text = '```\n<|tools_suffix|> </tool_call>\n```';
    const r = parse(block(JSON.stringify([{ post_message: { text } }])));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'apertus', name: 'post_message', args: { text } });
  });

  it('reports a list whose elements are not one-key objects as a wrong-shape attempt', () => {
    const r = parse(block('[{"name": "book_room", "arguments": {"room": "A"}, "id": "1"}]'));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });
});

describe('apertus: near misses', () => {
  it('prose that names the prefix token is not a call', () => {
    const r = parse('Apertus opens its calls with <|tools_prefix|> and closes them with <|tools_suffix|>.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${block('[{"list_rooms": {}}]')}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });

  it('a name-keyed object outside the tokens is data, not a call', () => {
    const r = parse('The mapping is [{"book_room": {"room": "A1"}}] in the config.');
    expect(r.calls).toEqual([]);
  });
});
