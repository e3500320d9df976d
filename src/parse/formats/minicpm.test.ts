import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';
import type { ParseTool } from '../../contracts/parse.js';
import { parseResponse } from '../index.js';

const param = (name: string, value: string) => `<param name="${name}">${value}</param>`;
const fn = (name: string, params: string) => `<function name="${name}">${params}</function>`;

describe('minicpm: <function name="…"><param name="…">…</param></function>', () => {
  it('reads one call, the region from <function to </function>', () => {
    const text = fn('add_event', param('title', 'Dentist') + param('date', '2025-03-04'));
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'minicpm',
      name: 'add_event',
      args: { title: 'Dentist', date: '2025-03-04' },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after prose, with prose after them', () => {
    const r = parse(
      `I'll add both.\n${fn('add_event', param('title', 'Run'))}\n${fn('add_event', param('title', 'Swim'))}\nBoth added.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['minicpm', 'add_event', { title: 'Run' }],
      ['minicpm', 'add_event', { title: 'Swim' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('reads a CDATA value as written, markup and line breaks included', () => {
    const body = 'line one\n<b>bold</b> & </param> too';
    const r = parse(fn('write_note', param('body', `<![CDATA[${body}]]>`)));
    expect(r.calls[0]).toMatchObject({ via: 'minicpm', name: 'write_note', args: { body } });
  });

  it('converts values by the offered schema', () => {
    const tools: ParseTool[] = [
      {
        name: 'add_event',
        inputSchema: { type: 'object', properties: { title: { type: 'string' }, minutes: { type: 'integer' } } },
      },
    ];
    const r = parseResponse(
      { text: fn('add_event', param('title', '45') + param('minutes', '45')), toolCalls: [] },
      'xml-tags',
      {
        tools,
      },
    );
    expect(r.calls[0]?.args).toEqual({ title: '45', minutes: 45 });
  });

  it('claims the <|tool_call_start|> / <|tool_call_end|> tokens around the call', () => {
    const r = parse(`<|tool_call_start|>${fn('list_events', '')}<|tool_call_end|>`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'minicpm', name: 'list_events', args: {} });
    expect(r.diagnostics).toEqual([]);
  });

  it('finds the call after a <think> block; inside one it is call-in-think', () => {
    const c = fn('list_events', '');
    expect(parse(`<think>check first</think>${c}`).calls[0]).toMatchObject({ via: 'minicpm', name: 'list_events' });
    const inside = parse(`<think>${c}</think>Your calendar is empty.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a call the reply cut off as truncated, with the parameters written so far', () => {
    const r = parse('<function name="add_event"><param name="title">Lunch</param><param name="place">Ca');
    expect(r.calls[0]).toMatchObject({
      via: 'minicpm',
      name: 'add_event',
      args: { title: 'Lunch', place: 'Ca' },
      truncated: true,
    });
  });

  it('is not confused with the <function=name> format, which stays function-tags', () => {
    const r = parse('<function=add_event>\n<parameter=title>Nap</parameter>\n</function>');
    expect(r.calls[0]).toMatchObject({ via: 'function-tags', name: 'add_event', args: { title: 'Nap' } });
  });
});

describe('minicpm: near misses', () => {
  it('prose that names the tag is not a call', () => {
    const r = parse('Write <function name=…> and then <param name=…> for each argument.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${fn('list_events', '')}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });

  it('a <function> without a name is a wrong-shape attempt', () => {
    const r = parse('<function name="">x</function>');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });
});
