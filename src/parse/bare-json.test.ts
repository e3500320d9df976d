import { describe, expect, it } from 'vitest';
import { acceptedCalls, parseResponse } from './index.js';

const parse = (text: string) => parseResponse({ text, toolCalls: [] }, 'xml-tags');
const summary = (text: string) => parse(text).calls.map((c) => [c.via, c.name, c.args]);

describe("bare-json: JSON call objects inside families' own tags and prose", () => {
  it('Jamba / Hunyuan-A13B / Apriel: a JSON list between <tool_calls> tags', () => {
    expect(summary('<tool_calls>[{"name": "get_stock", "arguments": {"sku": "K-1"}}]</tool_calls>')).toEqual([
      ['bare-json', 'get_stock', { sku: 'K-1' }],
    ]);
  });

  it('Nemotron: a JSON list between <TOOLCALL> tags, several calls', () => {
    expect(
      summary(
        '<TOOLCALL>[{"name": "get_stock", "arguments": {"sku": "A"}}, {"name": "get_stock", "arguments": {"sku": "B"}}]</TOOLCALL>',
      ),
    ).toEqual([
      ['bare-json', 'get_stock', { sku: 'A' }],
      ['bare-json', 'get_stock', { sku: 'B' }],
    ]);
  });

  it('MiniMax-M1: one JSON object per line between <tool_calls> tags', () => {
    const r = summary(
      '<tool_calls>\n{"name": "get_stock", "arguments": {"sku": "A"}}\n{"name": "reorder", "arguments": {"sku": "A", "n": 5}}\n</tool_calls>',
    );
    expect(r).toEqual([
      ['bare-json', 'get_stock', { sku: 'A' }],
      ['bare-json', 'reorder', { sku: 'A', n: 5 }],
    ]);
  });

  it('Granite-20B-FC: back-to-back <function_call> objects without a closer', () => {
    expect(
      summary(
        '<function_call> {"name": "get_stock", "arguments": {"sku": "X"}} <function_call> {"name": "reorder", "arguments": {"sku": "X"}}',
      ),
    ).toEqual([
      ['bare-json', 'get_stock', { sku: 'X' }],
      ['bare-json', 'reorder', { sku: 'X' }],
    ]);
  });

  it('Llama 3 JSON ({"name", "parameters"}) after prose; LongCat and Inkling tags', () => {
    expect(summary('Checking: {"name": "get_stock", "parameters": {"sku": "L"}}')).toEqual([
      ['bare-json', 'get_stock', { sku: 'L' }],
    ]);
    expect(summary('<longcat_tool_call>{"name": "get_stock", "arguments": {}}</longcat_tool_call>')).toEqual([
      ['bare-json', 'get_stock', {}],
    ]);
    expect(
      summary(
        '<|message_model|>get_stock<|content_invoke_tool_json|>{"name":"get_stock","args":{"sku":"I"}}<|end_message|>',
      ),
    ).toEqual([['bare-json', 'get_stock', { sku: 'I' }]]);
  });

  it('the whole reply as one JSON call is via json, accepted by a strict json detector', () => {
    const r = parseResponse({ text: '{"name": "get_stock", "arguments": {"sku": "J"}}', toolCalls: [] }, 'json');
    expect(r.calls[0]).toMatchObject({ via: 'json', name: 'get_stock' });
    expect(acceptedCalls(r, 'json')).toHaveLength(1);
  });

  it('a call inside <think> is call-in-think', () => {
    const r = parse('<think>{"name": "get_stock", "arguments": {"sku": "T"}}</think>All good.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a call object the reply cut off is repaired', () => {
    const r = parse('Here: {"name": "get_stock", "arguments": {"sku": "CU');
    expect(r.calls[0]).toMatchObject({ via: 'bare-json', name: 'get_stock', args: { sku: 'CU' }, repaired: true });
  });
});

describe('bare-json: near misses', () => {
  it('an object with a name and no arguments is data', () => {
    expect(parse('The item is {"name": "bolt", "size": 8}.').calls).toEqual([]);
  });

  it('a JSON call introduced as an example is a quoted example', () => {
    const r = parse('For example: {"name": "get_stock", "arguments": {"sku": "E"}}');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});
