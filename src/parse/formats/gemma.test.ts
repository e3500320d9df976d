import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

/** Gemma 4's string delimiter token. */
const Q = '<|"|>';

describe('gemma: Gemma 4 <|tool_call>call:NAME{…}<tool_call|>', () => {
  it('reads one call: bare keys, string values between the delimiter token, numbers and booleans', () => {
    const text = `<|tool_call>call:schedule_meeting{title:${Q}Budget review${Q},minutes:45,remote:true,room:null}<tool_call|>`;
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'gemma',
      name: 'schedule_meeting',
      args: { title: 'Budget review', minutes: 45, remote: true, room: null },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.rawArgs).toBe(`{title:${Q}Budget review${Q},minutes:45,remote:true,room:null}`);
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads nested objects and lists, and a string that holds braces, commas and colons', () => {
    const r = parse(
      `Planning.<|tool_call>call:create_event{when:{date:${Q}2025-06-01${Q},time:${Q}09:30${Q}},` +
        `guests:[${Q}ana@example.org${Q},${Q}bo@example.org${Q}],note:${Q}bring {snacks}, maps: yes${Q},scores:[1.5,-2]}<tool_call|>`,
    );
    expect(r.calls[0]).toMatchObject({
      via: 'gemma',
      name: 'create_event',
      args: {
        when: { date: '2025-06-01', time: '09:30' },
        guests: ['ana@example.org', 'bo@example.org'],
        note: 'bring {snacks}, maps: yes',
        scores: [1.5, -2],
      },
    });
  });

  it('reads several calls, each in its own tokens or one after another in one pair', () => {
    const r = parse(
      `<|tool_call>call:get_price{sku:${Q}A-1${Q}}<tool_call|><|tool_call>call:get_price{sku:${Q}B-2${Q}}<tool_call|>` +
        ` and <|tool_call>call:get_stock{sku:${Q}A-1${Q}}call:get_stock{sku:${Q}B-2${Q}}<tool_call|>`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['gemma', 'get_price', { sku: 'A-1' }],
      ['gemma', 'get_price', { sku: 'B-2' }],
      ['gemma', 'get_stock', { sku: 'A-1' }],
      ['gemma', 'get_stock', { sku: 'B-2' }],
    ]);
  });

  it('finds the call after its thought channel, which is reasoning', () => {
    const r = parse(
      `<|channel>thought\nThe user wants a reminder; <|tool_call>call:draft{x:1}<tool_call|> is not it.<channel|>` +
        `<|tool_call>call:set_reminder{text:${Q}Call mom${Q},at:${Q}18:00${Q}}<tool_call|>`,
    );
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'gemma', name: 'set_reminder', args: { text: 'Call mom', at: '18:00' } });
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('a thought channel left open ends at the call token', () => {
    const r = parse(`<|channel>thought\nJust look it up.<|tool_call>call:lookup{q:${Q}tides${Q}}<tool_call|>`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'gemma', name: 'lookup', args: { q: 'tides' } });
    expect(codes(r)).toEqual([]);
  });

  it('finds the call after a <think> block; inside one it is call-in-think', () => {
    const call = `<|tool_call>call:get_time{zone:${Q}CET${Q}}<tool_call|>`;
    const after = parse(`<think>easy</think>${call}`);
    expect(after.calls[0]).toMatchObject({ via: 'gemma', name: 'get_time', args: { zone: 'CET' } });
    expect(codes(after)).toEqual([]);
    const inside = parse(`<think>${call}</think>It is noon.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a call the reply cut off as truncated and repaired, keeping the text so far', () => {
    const r = parse(`<|tool_call>call:send_sms{to:${Q}+4790000000${Q},body:${Q}Running late, be th`);
    expect(r.calls[0]).toMatchObject({
      via: 'gemma',
      name: 'send_sms',
      args: { to: '+4790000000', body: 'Running late, be th' },
      truncated: true,
      repaired: true,
    });
  });

  it('flags a call without its closing token as truncated (not repaired)', () => {
    const r = parse(`<|tool_call>call:get_time{zone:${Q}UTC${Q}} Then I will answer.`);
    expect(r.calls[0]).toMatchObject({ via: 'gemma', name: 'get_time', args: { zone: 'UTC' }, truncated: true });
    expect(r.calls[0]?.repaired).toBe(false);
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const code = '```js\nconsole.log("}")\n```\n<tool_call|> <tool_call>x</tool_call> `y`';
    const r = parse(`<|tool_call>call:save_snippet{code:${Q}${code}${Q},lang:${Q}js${Q}}<tool_call|>`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'gemma', name: 'save_snippet', args: { code, lang: 'js' } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports arguments that do not read as an attempt', () => {
    const r = parse('<|tool_call>call:get_time{zone}<tool_call|>');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['unparseable-arguments']);
  });
});

describe('gemma: FunctionGemma <start_function_call>…<end_function_call>', () => {
  it('reads <escape>-delimited strings and bare values', () => {
    const text =
      '<start_function_call>call:set_thermostat{room:<escape>living room<escape>,celsius:21.5}<end_function_call>';
    const r = parse(text);
    expect(r.calls[0]).toMatchObject({
      via: 'gemma',
      name: 'set_thermostat',
      args: { room: 'living room', celsius: 21.5 },
      span: [0, text.length],
    });
    notAccepted(r);
  });

  it('reads a call cut off inside a string as truncated and repaired', () => {
    const r = parse('<start_function_call>call:search{query:<escape>cheap flights to Li');
    expect(r.calls[0]).toMatchObject({ name: 'search', args: { query: 'cheap flights to Li' }, truncated: true });
  });
});

describe('gemma: Gemma 3 ```tool_code fences', () => {
  it('are fenced python calls, as the fence finder reads them', () => {
    const r = parse('```tool_code\nget_exchange_rate(base="USD", target="JPY")\n```');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'fenced',
      fence: 'tool_code',
      inner: 'python-call',
      name: 'get_exchange_rate',
      args: { base: 'USD', target: 'JPY' },
    });
  });
});

describe('gemma: near misses', () => {
  it('prose that mentions the tokens is not a call', () => {
    const r = parse(
      'Gemma 4 wraps a call in <|tool_call> and <tool_call|>, writing call:get_weather before the braces.',
    );
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('the token with no call after it is not a call', () => {
    const r = parse('<|tool_call><tool_call|>Nothing needed.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: <|tool_call>call:get_weather{city:${Q}Oslo${Q}}<tool_call|>`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });
});
