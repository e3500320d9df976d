import { describe, expect, it } from 'vitest';
import type { ParsedCall } from '../contracts/parse.js';
import { parseResponse } from './index.js';

const parse = (text: string) => parseResponse({ text, toolCalls: [] }, 'python-call');
const calls = (text: string) => parse(text).calls;
const summary = (c: ParsedCall) => [c.name, c.args];
const codes = (text: string) => parse(text).diagnostics.map((d) => d.code);

const OSLO = ['get_weather', { city: 'Oslo' }];
const CET = ['get_time', { zone: 'CET' }];

describe('python-call: a python-call list in a one-line ``` span is a fenced call', () => {
  it.each([
    ['the list alone', '```[get_weather(city="Oslo")]```', [OSLO], ''],
    ['an info word before it', '```python [get_weather(city="Oslo")]```', [OSLO], 'python'],
    ['a short info word, bare call', '```py get_weather(city="Oslo")```', [OSLO], 'py'],
    ['two calls', '```[get_weather(city="Oslo"), get_time(zone="CET")]```', [OSLO, CET], ''],
    ['prose around it', 'Sure, here it is: ```[get_weather(city="Oslo")]``` Let me know.', [OSLO], ''],
    [
      'after a reasoning block',
      '<think>Oslo, so the weather tool.</think>\n```[get_weather(city="Oslo")]```',
      [OSLO],
      '',
    ],
    ['a bare call', 'On it.\n```get_time(zone="CET")```\nOne moment.', [CET], ''],
    ['one per line', '```[get_weather(city="Oslo")]```\n```[get_time(zone="CET")]```', [OSLO, CET], ''],
    ['closed on the line of the list', '```python\n[get_weather(city="Oslo")]```', [OSLO], 'python'],
  ])('%s', (_, text, expected, fence) => {
    const r = parse(text);
    expect(r.calls.map(summary)).toEqual(expected);
    for (const c of r.calls) {
      expect(c).toMatchObject({ via: 'fenced', fence, inner: 'python-call', repaired: false });
      expect(c.truncated).toBeUndefined();
    }
  });

  it('cut off inside the arguments: fenced, truncated and repaired', () => {
    const r = parse('Checking: ```[get_weather(city="Os');
    expect(r.calls).toMatchObject([
      {
        name: 'get_weather',
        args: { city: 'Os' },
        via: 'fenced',
        inner: 'python-call',
        truncated: true,
        repaired: true,
      },
    ]);
  });

  it('cut off before the closing backticks: fenced and truncated, the arguments whole', () => {
    const r = parse('```[get_weather(city="Oslo")]');
    expect(r.calls).toMatchObject([
      { name: 'get_weather', args: { city: 'Oslo' }, via: 'fenced', fence: '', truncated: true, repaired: false },
    ]);
  });

  it('not a call: a tool name in backticks, code with positional arguments, an example', () => {
    expect(parse('Use ```get_weather``` to check the weather.')).toEqual({ calls: [], diagnostics: [] });
    expect(parse('In Python: ```print("x")``` prints x.')).toEqual({ calls: [], diagnostics: [] });
    const example = parse('For example: ```[get_weather(city="Oslo")]```');
    expect(example.calls).toEqual([]);
    expect(example.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});

describe('python-call: bare python calls on separate lines', () => {
  it.each([
    ['two lines', 'get_weather(city="Oslo")\nget_time(zone="CET")', [OSLO, CET]],
    ['a blank line between', 'get_weather(city="Oslo")\n\nget_time(zone="CET")\n', [OSLO, CET]],
    [
      'prose on the lines before and after',
      'I\'ll check both.\nget_weather(city="Oslo")\nget_time(zone="CET")\nOne moment.',
      [OSLO, CET],
    ],
    [
      'after a reasoning block',
      '<think>Two tools.</think>\nget_weather(city="Oslo")\nget_time(zone="CET")',
      [OSLO, CET],
    ],
    [
      'an end-of-turn token after each',
      'get_weather(city="Oslo")<end_of_turn>\nget_time(zone="CET")<end_of_turn>',
      [OSLO, CET],
    ],
    ['indented', '  get_weather(city="Oslo")\n  get_time(zone="CET")', [OSLO, CET]],
    [
      'dotted names',
      'weather.current(city="Oslo")\nclock.now(zone="CET")',
      [
        ['weather.current', { city: 'Oslo' }],
        ['clock.now', { zone: 'CET' }],
      ],
    ],
    ['a call written over lines', 'get_weather(\n    city="Oslo",\n)\nget_time(zone="CET")', [OSLO, CET]],
    ['one call after a line of prose', 'Let me look that up.\nget_weather(city="Oslo")', [OSLO]],
    [
      'three calls, one without arguments',
      'get_weather(city="Oslo")\nget_time(zone="CET")\nlist_cities()',
      [OSLO, CET, ['list_cities', {}]],
    ],
  ])('%s', (_, text, expected) => {
    const r = parse(text);
    expect(r.calls.map(summary)).toEqual(expected);
    for (const c of r.calls) expect(c).toMatchObject({ via: 'python-call', repaired: false });
    expect(r.diagnostics.filter((d) => d.code !== 'multiple-calls')).toEqual([]);
  });

  it('the last call cut off: the calls before it whole, the cut one truncated and repaired', () => {
    const r = parse('get_weather(city="Oslo")\nget_time(zone="CE');
    expect(r.calls.map((c) => [c.name, c.args, c.truncated === true, c.repaired])).toEqual([
      ['get_weather', { city: 'Oslo' }, false, false],
      ['get_time', { zone: 'CE' }, true, true],
    ]);
  });

  it('not a call: code shown in prose, a call that does not end its line, a name mentioned', () => {
    expect(parse('To print it, write:\nprint("x")')).toEqual({ calls: [], diagnostics: [] });
    expect(parse('The get_weather tool takes a city.\nget_weather(city) returns its weather.').calls).toEqual([]);
    expect(parse('Sure.\nprint("x")\nlen(items)').calls).toEqual([]);
    // a line that starts like a call but breaks is prose, not a malformed attempt
    expect(parse('Here is a summary.\nSummary(draft, for review\nNothing else.')).toEqual({
      calls: [],
      diagnostics: [],
    });
  });

  it('a bare call with positional arguments is a call only as the whole reply (wrong-shape says why)', () => {
    const whole = parse('get_weather("Oslo")');
    expect(whole.calls.map(summary)).toEqual([['get_weather', { _0: 'Oslo' }]]);
    expect(whole.diagnostics.map((d) => d.code)).toEqual(['wrong-shape']);
    expect(calls('get_weather("Oslo")\nget_time(zone="CET")').map(summary)).toEqual([CET]);
  });
});

describe('python-call: a call list after a sentence of prose', () => {
  it.each([
    ['after a colon', 'Sure, I\'ll look that up: [get_weather(city="Oslo")]', [OSLO]],
    ['prose on the line before', 'Sure, I\'ll look that up:\n[get_weather(city="Oslo")]', [OSLO]],
    ['after a full stop', 'I\'ll check both. [get_weather(city="Oslo"), get_time(zone="CET")]', [OSLO, CET]],
    ['after an exclamation', 'Right away! [get_time(zone="CET")]', [CET]],
    ['after a question', 'Want the weather? [get_weather(city="Oslo")]', [OSLO]],
    ['after CJK punctuation', '好的：[get_weather(city="Oslo")]', [OSLO]],
    ['after a reasoning block', '<think>The weather tool.</think>Sure: [get_weather(city="Oslo")]', [OSLO]],
    ['an end-of-turn token after it', 'On it: [get_weather(city="Oslo")]<end_of_turn>', [OSLO]],
    [
      'two lines, each after prose',
      'First: [get_weather(city="Oslo")]\nThen: [get_time(zone="CET")]\nThat is all.',
      [OSLO, CET],
    ],
  ])('%s', (_, text, expected) => {
    const r = parse(text);
    expect(r.calls.map(summary)).toEqual(expected);
    for (const c of r.calls) expect(c).toMatchObject({ via: 'python-call', repaired: false });
    expect(r.diagnostics.filter((d) => d.code !== 'multiple-calls')).toEqual([]);
  });

  it('cut off: inside the arguments (truncated, repaired), or before the closing ] (calls whole)', () => {
    expect(calls('Sure: [get_weather(city="Os')).toMatchObject([
      { name: 'get_weather', args: { city: 'Os' }, truncated: true, repaired: true },
    ]);
    const r = parse('On it: [get_weather(city="Oslo"), get_time(zone="CET")');
    expect(r.calls.map(summary)).toEqual([OSLO, CET]);
    expect(r.diagnostics.map((d) => d.code)).toContain('truncated');
  });

  it('a list after prose that breaks before the end is a malformed attempt', () => {
    const r = parse('Sure: [get_weather(city="Oslo" unit="C")]');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unparseable-arguments']);
  });

  it('not a call: a call quoted inside a sentence, a list that does not end its line, no sentence before it', () => {
    expect(parse('You could call get_weather(city="Oslo") if you like.')).toEqual({ calls: [], diagnostics: [] });
    expect(parse('Note: get_weather(city="Oslo") is the call you would want.').calls).toEqual([]);
    expect(parse('The list [get_weather(city="Oslo")] is what I would send.').calls).toEqual([]);
    expect(parse('I would suggest calling [get_weather(city="Oslo")]').calls).toEqual([]);
  });

  it('after prose, positional arguments are prose and a list that breaks is an attempt only with a keyword first', () => {
    expect(parse('More on this below: [see(above)]')).toEqual({ calls: [], diagnostics: [] });
    expect(parse('See the appendix: [notes(part one]\nThat is all.')).toEqual({ calls: [], diagnostics: [] });
    // on a line of its own, a bracketed list keeps positional arguments (wrong-shape says why), as before
    expect(parse('Here:\n[get_weather("Oslo")]').diagnostics.map((d) => d.code)).toEqual(['wrong-shape']);
  });

  it('an example introduced as such is a quoted example, not a call', () => {
    const r = parse('For example: [get_weather(city="Oslo")]');
    expect(r.calls).toEqual([]);
    expect(codes('For example: [get_weather(city="Oslo")]')).toEqual(['quoted-example']);
    expect(r.diagnostics[0]?.span).toEqual([13, 39]);
  });
});

describe('python-call: a call list followed by prose on its line', () => {
  it.each([
    ['the whole reply starts with it', '[get_weather(city="Oslo")] Here\'s the forecast:', [OSLO]],
    ['several calls, then prose', '[get_weather(city="Oslo"), get_time(zone="CET")] Both are on the way.', [OSLO, CET]],
    ['on a later line', 'Let me see.\n[get_time(zone="CET")] One moment.', [CET]],
    ['after a reasoning block', '<think>weather</think>[get_weather(city="Oslo")] Checking now.', [OSLO]],
    ['an empty argument list', '[get_time()] One sec.', [['get_time', {}]]],
  ])('%s', (_, text, expected) => {
    const r = parse(text);
    expect(r.calls.map(summary)).toEqual(expected);
    for (const c of r.calls) expect(c).toMatchObject({ via: 'python-call', repaired: false });
  });

  it('a call inside <think> followed by prose is call-in-think', () => {
    expect(codes('<think>\n[get_weather(city="Oslo")] would work\n</think>It is sunny.')).toEqual(['call-in-think']);
  });

  it('cut off after the prose began: the list before it stands', () => {
    expect(calls('[get_weather(city="Oslo")] The forec').map(summary)).toEqual([OSLO]);
  });

  it('near misses: positional arguments, prose glued to the bracket, a list after prose, a bare call', () => {
    expect(parse('[see(above)] for the details.').calls).toEqual([]);
    expect(parse('[get_weather(city="Oslo")]then more').calls).toEqual([]);
    expect(parse('The list [get_weather(city="Oslo")] is what I would send.').calls).toEqual([]);
    expect(parse('get_weather(city="Oslo") is what I would call.').calls).toEqual([]);
  });
});

describe('python-call: near misses', () => {
  it('a call written inside a sentence is prose', () => {
    expect(parse('You could call get_weather(city="Oslo") if you like.')).toEqual({ calls: [], diagnostics: [] });
  });

  it('a bracketed reference with positional arguments after prose is prose', () => {
    expect(parse('Details are in the appendix: [see(part_two)]').calls).toEqual([]);
  });
});
