import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';
import type { ParseTool } from '../../contracts/parse.js';
import { parseResponse } from '../index.js';

const m2 = (invokes: string) => `<minimax:tool_call>\n${invokes}</minimax:tool_call>`;
const invoke = (name: string, params: string) => `<invoke name="${name}">\n${params}</invoke>\n`;
const param = (name: string, value: string) => `<parameter name="${name}">${value}</parameter>\n`;
/** MiniMax M3 writes its namespace token before every tag. */
const NS = ']<]minimax[>[';
const m3 = (invokes: string) => `${NS}<tool_call>${invokes}${NS}</tool_call>`;
const m3invoke = (name: string, children: string) => `${NS}<invoke name="${name}">${children}${NS}</invoke>`;
const el = (name: string, value: string) => `${NS}<${name}>${value}${NS}</${name}>`;

const TOOLS: ParseTool[] = [
  {
    name: 'ship_order',
    inputSchema: {
      type: 'object',
      properties: {
        order_id: { type: 'string' },
        express: { type: 'boolean' },
        address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } },
        items: { type: 'array', items: { type: 'integer' } },
      },
    },
  },
];
const parseWith = (text: string) => parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools: TOOLS });

describe('minimax: M2 <minimax:tool_call> blocks', () => {
  it('reads one call, the region from the block open to its close', () => {
    const text = m2(invoke('ship_order', param('order_id', 'A-17') + param('express', 'true')));
    const r = parseWith(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'minimax', name: 'ship_order', args: { order_id: 'A-17', express: true } });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several invokes after prose, with prose after the block', () => {
    const r = parse(
      `Shipping both.\n${m2(invoke('ship_order', param('order_id', 'A')) + invoke('ship_order', param('order_id', 'B')))}\nQueued.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['minimax', 'ship_order', { order_id: 'A' }],
      ['minimax', 'ship_order', { order_id: 'B' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('finds the call after interleaved <think> reasoning; inside it, it is call-in-think', () => {
    const c = m2(invoke('ship_order', param('order_id', 'C')));
    expect(parse(`<think>one order</think>${c}`).calls[0]).toMatchObject({ via: 'minimax', name: 'ship_order' });
    const inside = parse(`<think>${c}</think>Nothing to ship.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags an invoke the reply cut off as truncated', () => {
    const r = parse('<minimax:tool_call>\n<invoke name="ship_order">\n<parameter name="order_id">D-');
    expect(r.calls[0]).toMatchObject({ via: 'minimax', name: 'ship_order', args: { order_id: 'D-' }, truncated: true });
  });
});

describe('minimax: M3 namespaced tags with child-element parameters', () => {
  it('reads one call whose parameters are child elements, converted by the schema; its span covers the tokens', () => {
    const one = m3invoke('ship_order', el('order_id', '0042') + el('express', 'false'));
    const text = m3(one);
    const r = parseWith(text);
    expect(r.calls).toHaveLength(1);
    const start = text.indexOf(one);
    expect(r.calls[0]).toMatchObject({
      via: 'minimax',
      name: 'ship_order',
      args: { order_id: '0042', express: false },
      span: [start, start + one.length],
    });
    expect(r.diagnostics).toEqual([]);
  });

  it('reads nested elements as an object and <item> elements as a list', () => {
    const children =
      el('address', el('city', 'Bergen') + el('zip', '5003')) + el('items', el('item', '3') + el('item', '7'));
    const r = parseWith(m3(m3invoke('ship_order', children)));
    expect(r.calls[0]?.args).toEqual({ address: { city: 'Bergen', zip: '5003' }, items: [3, 7] });
  });

  it('reads several invokes, with prose around the block', () => {
    const r = parseWith(
      `Two parcels: ${m3(m3invoke('ship_order', el('order_id', 'X')) + m3invoke('ship_order', el('order_id', 'Y')))} sent.`,
    );
    expect(r.calls.map((c) => c.args)).toEqual([{ order_id: 'X' }, { order_id: 'Y' }]);
  });

  it('flags a block the reply cut off as truncated, with the elements written so far', () => {
    const r = parseWith(`${NS}<tool_call>${NS}<invoke name="ship_order">${el('order_id', 'Z')}${NS}<express>tr`);
    expect(r.calls[0]).toMatchObject({ via: 'minimax', name: 'ship_order', truncated: true });
    expect(r.calls[0]?.args).toMatchObject({ order_id: 'Z' });
  });
});

describe('minimax: near misses', () => {
  it('a bare <invoke> without the MiniMax block stays Anthropic-style invoke-xml', () => {
    const r = parse(invoke('ship_order', param('order_id', 'Q')));
    expect(r.calls[0]).toMatchObject({ via: 'invoke-xml', name: 'ship_order' });
  });

  it('prose that names the block is not a call', () => {
    const r = parse('MiniMax wraps calls in <minimax:tool_call> blocks.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a block shown as an example is a quoted example', () => {
    const r = parse(`For example:\n${m2(invoke('ship_order', param('order_id', 'E')))}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });
});
