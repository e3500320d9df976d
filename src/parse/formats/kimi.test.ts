import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

const call = (id: string, args: string) =>
  `<|tool_call_begin|>${id}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;
const section = (...calls: string[]) => `<|tool_calls_section_begin|>${calls.join('')}<|tool_calls_section_end|>`;

describe('kimi: <|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>', () => {
  it('reads one call: the name between functions. and :IDX, the whole id as the call id', () => {
    const one = call('functions.create_invoice:0', '{"customer": "Acme AS", "amount": 1990}');
    const r = parse(section(one));
    expect(r.calls).toHaveLength(1);
    const start = '<|tool_calls_section_begin|>'.length;
    expect(r.calls[0]).toMatchObject({
      via: 'kimi',
      name: 'create_invoice',
      id: 'functions.create_invoice:0',
      args: { customer: 'Acme AS', amount: 1990 },
      rawArgs: '{"customer": "Acme AS", "amount": 1990}',
      repaired: false,
      span: [start, start + one.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after prose; a dotted tool name stays whole', () => {
    const r = parse(
      `I will read both files. ${section(
        call('functions.fs.read_text:0', '{"path": "README.md"}'),
        call('functions.fs.read_text:1', '{"path": "CHANGELOG.md"}'),
      )} Done.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.id, c.args])).toEqual([
      ['kimi', 'fs.read_text', 'functions.fs.read_text:0', { path: 'README.md' }],
      ['kimi', 'fs.read_text', 'functions.fs.read_text:1', { path: 'CHANGELOG.md' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('names the tool by the whole id before :IDX when functions. is missing', () => {
    const r = parse(section(call('lookup_user:3', '{"email": "kari@example.no"}')));
    expect(r.calls[0]).toMatchObject({ via: 'kimi', name: 'lookup_user', id: 'lookup_user:3' });
  });

  it('finds the call after a <think> block', () => {
    const r = parse(`<think>One call is enough.</think>${section(call('functions.get_quota:0', '{}'))}`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'kimi', name: 'get_quota', args: {} });
    expect(codes(r)).toEqual([]);
  });

  it('reports a call inside a <think> block as call-in-think, not a call', () => {
    const r = parse(`<think>${section(call('functions.get_quota:0', '{}'))}</think>You have 3 GB left.`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('flags a call the reply cut off as truncated and repaired', () => {
    const r = parse(
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.summarize:0<|tool_call_argument_begin|>{"url": "https://exa',
    );
    expect(r.calls[0]).toMatchObject({
      via: 'kimi',
      name: 'summarize',
      args: { url: 'https://exa' },
      truncated: true,
      repaired: true,
    });
  });

  it('flags a call whose <|tool_call_end|> is missing before the next call as truncated', () => {
    const r = parse(
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"x": 1}' +
        `${call('functions.b:1', '{"y": 2}')}<|tool_calls_section_end|>`,
    );
    expect(r.calls.map((c) => [c.name, c.args, c.truncated ?? false, c.repaired])).toEqual([
      ['a', { x: 1 }, true, false],
      ['b', { y: 2 }, false, false],
    ]);
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const body = '```json\n{"a": 1}\n```\n<|tool_call_end|><|tool_call_begin|> <tool_call> `b`';
    const r = parse(section(call('functions.post_comment:0', JSON.stringify({ body }))));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'kimi', name: 'post_comment', args: { body } });
    expect(r.diagnostics).toEqual([]);
  });

  it("a call quoted inside another call's JSON string value stays that value", () => {
    const quoted = section(call('functions.get_quota:0', '{"user": "x"}'));
    const r = parse(`Saving. ${JSON.stringify({ name: 'save_note', arguments: { text: quoted } })}`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'bare-json', name: 'save_note', args: { text: quoted } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports arguments that do not parse as an attempt', () => {
    const r = parse(section(call('functions.post_comment:0', '{"body"::: "x"}')));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['unparseable-arguments']);
  });
});

describe('kimi: near misses', () => {
  it('prose that mentions the tokens is not a call', () => {
    const r = parse(
      'Kimi opens a call with <|tool_call_begin|>, names it like functions.get_weather:0, then writes the arguments.',
    );
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('the section with no call in it is not a call', () => {
    const r = parse('<|tool_calls_section_begin|><|tool_calls_section_end|>Nothing to do.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${call('functions.get_weather:0', '{"city": "Bergen"}')}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });
});
