import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';
import type { ParseTool } from '../../contracts/parse.js';
import { parseResponse } from '../index.js';

const arg = (key: string, value: string, type?: string) =>
  `<|open|>argument key="${key}"${type ? ` type="${type}"` : ''}<|sep|>${value}<|close|>argument<|sep|>`;
const call = (tool: string, args: string, index = 1) =>
  `<|open|>call tool="${tool}" index="${index}"<|sep|>${args}<|close|>call<|sep|>`;
const tools = (...calls: string[]) => `<|open|>tools<|sep|>${calls.join('')}<|close|>tools<|sep|>`;

describe('kimi K3: <|open|>call tool="…"<|sep|> with typed <|open|>argument key="…"<|sep|> blocks', () => {
  it('reads one call, each argument converted as its type attribute says', () => {
    const text = tools(
      call(
        'resize_image',
        arg('path', 'img/cat.png', 'string') + arg('width', '640', 'integer') + arg('keep_ratio', 'true', 'boolean'),
      ),
    );
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'kimi',
      name: 'resize_image',
      id: 'resize_image:1',
      args: { path: 'img/cat.png', width: 640, keep_ratio: true },
      repaired: false,
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('a string-typed value stays text even when it looks like a number or JSON', () => {
    const r = parse(tools(call('lookup', arg('zip', '0150', 'string') + arg('filter', '{"a": 1}', 'object'))));
    expect(r.calls[0]?.args).toEqual({ zip: '0150', filter: { a: 1 } });
  });

  it('reads several calls after prose, with prose after the section', () => {
    const r = parse(
      `Two files then. ${tools(call('read_file', arg('path', 'a.md', 'string'), 1), call('read_file', arg('path', 'b.md', 'string'), 2))} Reading now.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args, c.id])).toEqual([
      ['kimi', 'read_file', { path: 'a.md' }, 'read_file:1'],
      ['kimi', 'read_file', { path: 'b.md' }, 'read_file:2'],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('converts an argument without a type by the offered schema, and undoes attribute escaping', () => {
    const offered: ParseTool[] = [
      { name: 'count', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
    ];
    const text = tools(call('count', arg('n', '7') + arg('a&amp;b', 'x &quot;y&quot;', 'string')));
    const r = parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools: offered });
    expect(r.calls[0]).toMatchObject({ name: 'count', args: { n: 7, 'a&b': 'x &quot;y&quot;' } });
  });

  it('finds the call after the think channel; a call inside it is call-in-think', () => {
    const c = tools(call('get_quota', ''));
    const after = parse(`<|open|>think<|sep|>One call.<|close|>think<|sep|>${c}`);
    expect(after.calls[0]).toMatchObject({ via: 'kimi', name: 'get_quota', args: {} });
    expect(codes(after)).toEqual([]);
    const inside = parse(`Considering ${c} first.<|close|>think<|sep|><|open|>response<|sep|>You have 2 GB.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a call the reply cut off inside a value as truncated, with the text so far', () => {
    const r = parse(
      '<|open|>tools<|sep|><|open|>call tool="translate"<|sep|><|open|>argument key="text" type="string"<|sep|>Hei på',
    );
    expect(r.calls[0]).toMatchObject({ via: 'kimi', name: 'translate', args: { text: 'Hei på' }, truncated: true });
  });

  it('keeps markup-like text inside a string value up to the argument close token', () => {
    const value = '<tool_call>{"name": "x"}</tool_call> and <|open|>call';
    const r = parse(tools(call('save_note', arg('body', value, 'string'))));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]?.args).toEqual({ body: value });
  });

  it('reports a call without a tool attribute as a wrong-shape attempt', () => {
    const r = parse(tools('<|open|>call index="1"<|sep|><|close|>call<|sep|>'));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });
});

describe('kimi K3: near misses', () => {
  it('prose that names the tokens is not a call', () => {
    const r = parse('K3 opens a call with <|open|>call and ends it with <|close|>call<|sep|>.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${call('get_quota', '')}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });

  it('Kimi K2 tokens are still read as K2 calls', () => {
    const r = parse(
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_quota:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>',
    );
    expect(r.calls[0]).toMatchObject({ via: 'kimi', name: 'get_quota', id: 'functions.get_quota:0' });
  });
});
