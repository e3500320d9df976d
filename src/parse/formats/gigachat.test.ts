import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';
import type { ParseTool } from '../../contracts/parse.js';
import { parseResponse } from '../index.js';

const v3 = (json: string) => `<|message_sep|>\n\nfunction call<|role_sep|>\n${json}`;
const gcml = (invokes: string) => `<｜GCML｜tool_calls>\n${invokes}</｜GCML｜tool_calls>`;
const invoke = (name: string, params: string) => `<｜GCML｜invoke name="${name}">\n${params}</｜GCML｜invoke>\n`;
const param = (name: string, value: string, string: boolean) =>
  `<｜GCML｜parameter name="${name}" string="${string}">${value}</｜GCML｜parameter>\n`;

describe('gigachat: GigaChat 3 function call<|role_sep|> and GigaChat 3.5 GCML', () => {
  it('GigaChat 3: one JSON call after the function-call role', () => {
    const r = parse(v3('{"name": "get_rates", "arguments": {"base": "RUB"}}'));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'gigachat', name: 'get_rates', args: { base: 'RUB' }, repaired: false });
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('GigaChat 3: prose before the call message, and a call the reply cut off', () => {
    const r = parse(`Сейчас проверю курс.${v3('{"name": "get_rates", "arguments": {"base": "EUR"}}')}`);
    expect(r.calls[0]).toMatchObject({ via: 'gigachat', name: 'get_rates', args: { base: 'EUR' } });
    const cut = parse(v3('{"name": "get_rates", "arguments": {"base": "US'));
    expect(cut.calls[0]).toMatchObject({ via: 'gigachat', args: { base: 'US' }, truncated: true, repaired: true });
  });

  it('GCML: string="true" keeps text, string="false" is JSON; several invokes after prose', () => {
    const r = parse(
      `Two lookups.\n${gcml(invoke('get_rates', param('base', 'USD', true) + param('days', '7', false)) + invoke('get_rates', param('base', '001', true)))}\nDone.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['gigachat', 'get_rates', { base: 'USD', days: 7 }],
      ['gigachat', 'get_rates', { base: '001' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('GCML: the ASCII bar a proxy writes is read too', () => {
    const r = parse(
      '<|GCML|tool_calls><|GCML|invoke name="get_rates"><|GCML|parameter name="base" string="true">SEK</|GCML|parameter></|GCML|invoke></|GCML|tool_calls>',
    );
    expect(r.calls[0]).toMatchObject({ via: 'gigachat', name: 'get_rates', args: { base: 'SEK' } });
  });

  it('GCML: a parameter without the attribute is converted by the schema', () => {
    const tools: ParseTool[] = [
      { name: 'get_rates', inputSchema: { type: 'object', properties: { days: { type: 'integer' } } } },
    ];
    const text = gcml(invoke('get_rates', '<｜GCML｜parameter name="days">30</｜GCML｜parameter>\n'));
    expect(parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools }).calls[0]?.args).toEqual({ days: 30 });
  });

  it('GCML: a call inside <think> is call-in-think', () => {
    const r = parse(`<think>${gcml(invoke('get_rates', param('base', 'USD', true)))}</think>The rate is 1.`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('GCML: an invoke the reply cut off is truncated with the values so far', () => {
    const r = parse(
      '<｜GCML｜tool_calls>\n<｜GCML｜invoke name="get_rates">\n<｜GCML｜parameter name="base" string="true">NO',
    );
    expect(r.calls[0]).toMatchObject({ via: 'gigachat', name: 'get_rates', args: { base: 'NO' }, truncated: true });
  });

  it('GigaChat 3: a body that is not a call object is a wrong-shape attempt', () => {
    const r = parse(v3('{"text": "hello"}'));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });
});

describe('gigachat: near misses', () => {
  it('prose that mentions a function call is not one', () => {
    const r = parse('A function call<|role_sep|> header starts the message, followed by JSON.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a GCML call shown as an example is a quoted example', () => {
    const r = parse(`For example:\n${gcml(invoke('get_rates', param('base', 'USD', true)))}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });
});
