import { describe, expect, it } from 'vitest';
import {
  CASE_000_EXPECTED,
  CASE_000_PROSE,
  CASE_001_FENCED,
  CASE_002_STOPPED,
} from '../../tests/fixtures/parse/golden.js';
import type { Protocol } from '../contracts/model.js';
import { acceptedCalls, parseResponse } from './index.js';

const text = (t: string, protocol: Protocol = 'xml-tags') => parseResponse({ text: t, toolCalls: [] }, protocol);
const codes = (t: string) => text(t).diagnostics.map((d) => d.code);

describe('case-study golden outputs', () => {
  it('000: the expected <tool_call> with id/tool_name parses strictly', () => {
    const r = text(CASE_000_EXPECTED);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      name: 'read_data_from_excel',
      id: 'call_001',
      via: 'xml-tags',
      repaired: false,
      args: { filepath: 'test.xlsx', sheet_name: 'Sheet1' },
      span: [0, CASE_000_EXPECTED.length],
    });
    expect(JSON.parse(r.calls[0]?.rawArgs ?? '')).toEqual({ filepath: 'test.xlsx', sheet_name: 'Sheet1' });
    expect(acceptedCalls(r, 'xml-tags')).toHaveLength(1);
  });

  it('000: a prose reply that mentions the arguments is not a call', () => {
    const r = text(CASE_000_PROSE);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('001: the ```tool_call fenced call is found as fenced, not accepted by the strict detector', () => {
    const r = text(CASE_001_FENCED);
    expect(r.calls).toHaveLength(1);
    const call = r.calls[0];
    expect(call).toMatchObject({
      name: 'read_data_from_excel',
      via: 'fenced',
      fence: 'tool_call',
      inner: 'json',
      repaired: false,
    });
    expect(call?.args).toEqual({ filepath: 'myfile.xlsx', sheet_name: 'Sheet1', start_cell: 'A1' });
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });

  it('002: the <tool_call> with elided "..." parses only after repair', () => {
    const r = text(CASE_002_STOPPED);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ name: 'read_data_from_excel', via: 'xml-tags', repaired: true, id: 'call_001' });
    expect(codes(CASE_002_STOPPED)).toContain('repaired');
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });
});

describe('xml-tags', () => {
  it('accepts tool_name/parameters, several calls with text around, and reports multiple-calls', () => {
    const t =
      'First <tool_call>{"name":"a","arguments":{"x":1}}</tool_call> then <tool_call>{"tool_name":"b","parameters":{"y":"z"}}</tool_call> done.';
    const r = text(t);
    expect(r.calls.map((c) => [c.name, c.args])).toEqual([
      ['a', { x: 1 }],
      ['b', { y: 'z' }],
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['multiple-calls']);
    expect(t.slice(...(r.calls[1]?.span ?? [0, 0]))).toBe(
      '<tool_call>{"tool_name":"b","parameters":{"y":"z"}}</tool_call>',
    );
  });

  it('a stop tag cut short or missing still closes the call, flagged truncated but accepted', () => {
    for (const t of [
      '<tool_call>{"name":"a","arguments":{"x":1}}</tool_call',
      '<tool_call>\n{"name":"a","arguments":{"x":1}}\n',
    ]) {
      const r = text(t);
      expect(r.calls[0]).toMatchObject({ name: 'a', args: { x: 1 }, truncated: true, repaired: false });
      expect(r.diagnostics.map((d) => d.code)).toContain('truncated');
      expect(acceptedCalls(r, 'xml-tags')).toHaveLength(1);
    }
  });

  it('cut-off JSON inside the tag is repaired and flagged', () => {
    const r = text('<tool_call>{"name": "a", "arguments": {"path": "x.txt"');
    expect(r.calls[0]).toMatchObject({ name: 'a', args: { path: 'x.txt' }, repaired: true, truncated: true });
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });

  it('a tag whose body is not a call is a wrong-shape attempt, not a call', () => {
    const r = text('<tool_call>I would like to read the file</tool_call>');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['wrong-shape']);
  });

  it('decodes double-encoded arguments', () => {
    const r = text('<tool_call>{"name":"a","arguments":"{\\"x\\": 2}"}</tool_call>');
    expect(r.calls[0]?.args).toEqual({ x: 2 });
    expect(r.diagnostics.map((d) => d.code)).toContain('double-encoded');
  });

  it('an example introduced as such is not a call', () => {
    const r = text('The format is, for example: <tool_call>{"name":"a","arguments":{}}</tool_call>');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});

describe('fences and inline code', () => {
  it.each([
    ['json', '```json\n{"name": "a", "arguments": {"x": 1}}\n```', 'json'],
    ['', '```\n{"name": "a", "arguments": {"x": 1}}\n```', 'json'],
    ['xml', '```xml\n<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>\n```', 'xml-tags'],
    ['python', '```python\n[a(x=1)]\n```', 'python-call'],
  ])('```%s fence', (fence, t, inner) => {
    const r = text(`Here you go:\n${t}\n`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ name: 'a', args: { x: 1 }, via: 'fenced', fence, inner });
  });

  it('inline backticks around a tag', () => {
    const r = text('Calling `<tool_call>{"name":"a","arguments":{"x":1}}</tool_call>` now');
    expect(r.calls[0]).toMatchObject({ name: 'a', via: 'inline-code', inner: 'xml-tags', fence: '' });
  });

  it('a json fence holding plain data, and code samples with positional args, are not calls', () => {
    expect(text('```json\n{"rows": 3, "name": "x"}\n```').calls).toEqual([]);
    expect(text('```python\nprint("hello")\n```').calls).toEqual([]);
    expect(text('Use `read_data_from_excel` for that.').calls).toEqual([]);
  });

  it('an unclosed fence runs to the end of the reply', () => {
    const r = text('```tool_call\n{"name": "a", "arguments": {}}');
    expect(r.calls[0]).toMatchObject({ name: 'a', via: 'fenced', truncated: true });
  });
});

describe('bare JSON', () => {
  it('the whole reply is via json (strict for the json protocol); inside prose it is bare-json', () => {
    const whole = text('  {"name": "a", "arguments": {"x": 1}}\n', 'json');
    expect(whole.calls[0]).toMatchObject({ via: 'json', name: 'a' });
    expect(acceptedCalls(whole, 'json')).toHaveLength(1);
    const prose = text('Sure. {"name": "a", "arguments": {"x": 1}} Done.', 'json');
    expect(prose.calls[0]).toMatchObject({ via: 'bare-json' });
    expect(acceptedCalls(prose, 'json')).toEqual([]);
  });

  it('arrays of calls and the OpenAI function shape', () => {
    const r = text(
      '[{"function": "a", "parameters": {"x": 1}}, {"function": {"name": "b", "arguments": "{\\"y\\":2}"}}]',
      'json',
    );
    expect(r.calls.map((c) => [c.name, c.args, c.via])).toEqual([
      ['a', { x: 1 }, 'json'],
      ['b', { y: 2 }, 'json'],
    ]);
  });

  it('an object with a name but no arguments is data, not a call', () => {
    expect(text('The user is {"name": "John", "age": 3}.').calls).toEqual([]);
  });

  it('python dicts in call arguments are values, not bare JSON calls; a call object needs an arguments key', () => {
    const r = text("[update_user_info(user_id=1, update_info={'name': 'John', 'email': 'j@x.com'})]", 'python-call');
    expect(r.calls.map((c) => [c.name, c.via, c.args])).toEqual([
      ['update_user_info', 'python-call', { user_id: 1, update_info: { name: 'John', email: 'j@x.com' } }],
    ]);
    expect(r.diagnostics).toEqual([]);
    // the same object with an arguments key (single-quoted: it needs jsonrepair) is a call
    expect(text("Calling {'name': 'f', 'args': {'a': 1}} now.").calls).toMatchObject([
      { name: 'f', args: { a: 1 }, via: 'bare-json', repaired: true },
    ]);
    // keys written with escapes are still read
    expect(text('Calling {"\\u006eame": "f", "\\u0061rguments": {"a": 1}} now.').calls).toMatchObject([
      { name: 'f', args: { a: 1 }, via: 'bare-json' },
    ]);
  });
});

describe('python-call', () => {
  it('BFCL recorded replies, including a trailing <end_of_turn>', () => {
    const r = text('[stock_forecast(company="Google", days=3)]<end_of_turn>', 'python-call');
    expect(r.calls[0]).toMatchObject({
      name: 'stock_forecast',
      args: { company: 'Google', days: 3 },
      via: 'python-call',
    });
    const two = text(
      '[spotify.play(artist="Taylor Swift", duration=20), spotify.play(artist="Maroon 5", duration=15)]',
      'python-call',
    );
    expect(acceptedCalls(two, 'python-call').map((c) => c.args)).toEqual([
      { artist: 'Taylor Swift', duration: 20 },
      { artist: 'Maroon 5', duration: 15 },
    ]);
  });

  it('without brackets, and on its own line after prose', () => {
    expect(text('lawyer.search(location="Los Angeles", expertise="Divorce")').calls[0]?.name).toBe('lawyer.search');
    expect(text('Sure, here it is:\n[f(a=1)]\n').calls[0]?.args).toEqual({ a: 1 });
  });

  it('a call quoted inside a sentence is not a call', () => {
    expect(text('You could run f(a=1) yourself.').calls).toEqual([]);
  });

  it('a list cut off by the end of the reply: calls parsed up to the cut, the cut one truncated and repaired', () => {
    // BFCL parallel_93's reply (recorded), cut off mid-argument list as a max-tokens limit would
    const r = text(
      '[route.estimate_time(start_location="New York", end_location="Miami"), route.estimate_time(start_location="Philadelphia", end_location',
      'python-call',
    );
    expect(r.calls.map((c) => [c.name, c.args, c.repaired, c.truncated === true])).toEqual([
      ['route.estimate_time', { start_location: 'New York', end_location: 'Miami' }, false, false],
      ['route.estimate_time', { start_location: 'Philadelphia' }, true, true],
    ]);
    expect(acceptedCalls(r, 'python-call').length).toBe(1);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['multiple-calls', 'truncated', 'repaired']);
    expect(r.diagnostics[2]?.message).toBe(
      'route.estimate_time: arguments only parse with the brackets the cut left open closed',
    );
  });

  it('complete calls whose list lost only its closing ] are accepted (BFCL adds the ] too), with a note', () => {
    const r = text('[f(a=1), g(b="x")', 'python-call');
    expect(acceptedCalls(r, 'python-call').map((c) => c.name)).toEqual(['f', 'g']);
    expect(r.diagnostics.find((d) => d.code === 'truncated')?.message).toBe(
      "call list cut short: the reply ends before its closing ']'",
    );
  });

  it('a call list broken before the end is a malformed attempt, not prose', () => {
    // BFCL parallel_39 (recorded): a list closed by `)`
    const r = text(
      '[museum_info.get_info(location="Louvre Museum, Paris", details=["Opening hours", "Adult tickets")]',
    );
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([
      {
        code: 'unparseable-arguments',
        message: `python-call list at 0 does not parse: expected ']' but found ")" at 96`,
        span: [0, 97],
      },
    ]);
    // prose that merely has a word before parentheses is not an attempt
    expect(text('Paris (the capital) is lovely.').diagnostics).toEqual([]);
    // an adversarial reply of many broken lists reports a few and counts the rest
    const many = text('[f(a=1 b=2)]\n'.repeat(10));
    expect(many.diagnostics.map((d) => d.message).slice(-1)).toEqual(['7 more python-call list(s) that do not parse']);
    expect(many.diagnostics.length).toBe(4);
  });

  it('a ```python fence cut off with its call list is closed the same way', () => {
    const r = text('Here:\n```python\n[get_weather(city="Paris", unit="c');
    expect(r.calls.map((c) => [c.name, c.args, c.via, c.fence, c.repaired, c.truncated])).toEqual([
      ['get_weather', { city: 'Paris', unit: 'c' }, 'fenced', 'python', true, true],
    ]);
  });
});

describe('<function=…> calls (OpenHands / Qwen3-Coder parameters, Llama 3.1 JSON)', () => {
  it('parameters become arguments; whole JSON literals are typed, other text stays as written', () => {
    const r = text(
      'I will read it.\n<function=read_data_from_excel>\n<parameter=filepath>test.xlsx</parameter>\n<parameter=start_row>\n3\n</parameter>\n<parameter=cols>["A", "B"]</parameter>\n<parameter=note>\nline one\nline two\n</parameter>\n<parameter=zip>"02134"</parameter>\n</function>',
    );
    expect(r.calls).toMatchObject([
      {
        name: 'read_data_from_excel',
        args: { filepath: 'test.xlsx', start_row: 3, cols: ['A', 'B'], note: 'line one\nline two', zip: '"02134"' },
        via: 'function-tags',
        repaired: false,
      },
    ]);
    // a shape no renderer asks for: found, never strict
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });

  it("Llama 3.1's JSON body, several calls, a cut-off call, and a body that is not JSON", () => {
    const r = text(
      '<function=get_weather>{"city": "Paris"}</function><function=get_time>{}</function>\n<function=get_weather>{"city": "Ro',
    );
    expect(r.calls.map((c) => [c.name, c.args, c.truncated === true, c.repaired])).toEqual([
      ['get_weather', { city: 'Paris' }, false, false],
      ['get_time', {}, false, false],
      ['get_weather', { city: 'Ro' }, true, true],
    ]);
    const bad = text('<function=get_weather>city is Paris</function>');
    expect(bad.calls).toEqual([]);
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['unparseable-arguments']);
  });

  it("Qwen3-Coder's form inside <tool_call> tags is a function-tags call, not a strict xml-tags one", () => {
    const r = text(
      '<tool_call>\n<function=read_data_from_excel>\n<parameter=filepath>\ntest.xlsx\n</parameter>\n</function>\n</tool_call>',
    );
    expect(r.calls.map((c) => [c.name, c.args, c.via])).toEqual([
      ['read_data_from_excel', { filepath: 'test.xlsx' }, 'function-tags'],
    ]);
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('not a call: an invalid name, or a call shown as an example', () => {
    expect(text('<function=not a name>{}</function>').calls).toEqual([]);
    expect(text('For example: <function=f>{"a": 1}</function>').diagnostics.map((d) => d.code)).toEqual([
      'quoted-example',
    ]);
  });
});

describe('a runaway reply', () => {
  it('each finder stops at 1,000 findings, says where, and the finders after it do not read the rest', () => {
    const r = text('<tool_call>{"name": "f", "arguments": {}}</tool_call>'.repeat(1_500));
    expect(r.calls.length).toBe(1_000);
    expect(r.diagnostics.find((d) => d.code === 'multiple-calls')?.message).toBe('1000 calls in one reply: f ×1000');
    expect(r.diagnostics.filter((d) => d.code === 'other').map((d) => d.message)).toEqual([
      '<tool_call>: stopped reading at offset 53000: the reply holds more calls, attempts or candidates than the parser reads in one reply',
    ]);
  });

  it('python-call lines: a long list of lines is read in linear time, up to 500 lists', () => {
    const r = text('[f(a=1)]\n'.repeat(2_000), 'python-call');
    expect(r.calls.length).toBe(500);
    expect(r.diagnostics.map((d) => d.message)).toContain(
      'python-call: stopped reading at offset 4500: the reply holds more calls, attempts or candidates than the parser reads in one reply',
    );
  });
});

describe('think blocks and native calls', () => {
  it('calls inside <think> are reported, not returned', () => {
    const r = text(
      '<think>I should call <tool_call>{"name":"a","arguments":{}}</tool_call></think>Paris is the capital.',
    );
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a call after the reasoning block is a call', () => {
    const r = text('<think>plan</think>\n<tool_call>{"name":"a","arguments":{}}</tool_call>');
    expect(r.calls.map((c) => c.name)).toEqual(['a']);
  });

  it('native calls: string, object, double-encoded and repaired arguments', () => {
    const r = parseResponse(
      {
        text: '',
        toolCalls: [
          { id: '1', name: 'a', arguments: '{"x":1}' },
          { id: '2', name: 'b', arguments: { y: 2 } },
          { id: '3', name: 'c', arguments: '"{\\"z\\":3}"' },
          { id: '4', name: 'd', arguments: '{"w": 4' },
        ],
      },
      'native',
    );
    expect(r.calls.map((c) => [c.name, c.args, c.repaired, c.id])).toEqual([
      ['a', { x: 1 }, false, '1'],
      ['b', { y: 2 }, false, '2'],
      ['c', { z: 3 }, false, '3'],
      ['d', { w: 4 }, true, '4'],
    ]);
    expect(acceptedCalls(r, 'native').map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(r.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(['double-encoded', 'repaired', 'multiple-calls']),
    );
  });
});

describe('backticks inside a <tool_call> body', () => {
  it('are argument text, not inline code', () => {
    const content = 'export const greet = (name: string) => `Hello, $' + '{name}`;\n';
    const text = `<tool_call>${JSON.stringify({ name: 'write_to_file', arguments: { path: 'src/greet.ts', content } })}</tool_call>`;
    const result = parseResponse({ text, toolCalls: [] }, 'xml-tags');
    expect(result.calls).toHaveLength(1);
    expect(result.calls[0]).toMatchObject({ via: 'xml-tags', name: 'write_to_file', repaired: false });
    expect((result.calls[0]!.args as { content: string }).content).toBe(content);
  });
});

describe('model formats where they meet the protocols', () => {
  const tools = [{ name: 'lookup', inputSchema: { type: 'object', properties: { code: { type: 'string' } } } }];
  const withTools = (t: string) => parseResponse({ text: t, toolCalls: [] }, 'xml-tags', { tools });

  it("Qwen3-Coder's <function=…> inside <tool_call> converts its values by the offered tool's schema", () => {
    const reply = '<tool_call>\n<function=lookup>\n<parameter=code>\n42\n</parameter>\n</function>\n</tool_call>';
    expect(withTools(reply).calls[0]).toMatchObject({ via: 'function-tags', name: 'lookup', args: { code: '42' } });
    expect(text(reply).calls[0]).toMatchObject({ via: 'function-tags', args: { code: 42 } });
  });

  it('a ```tool_call fence holding <function=…> converts by the schema too, and is reported as wrapped', () => {
    const r = withTools('```tool_call\n<function=lookup><parameter=code>42</parameter></function>\n```');
    expect(r.calls[0]).toMatchObject({
      via: 'fenced',
      fence: 'tool_call',
      inner: 'function-tags',
      args: { code: '42' },
    });
  });

  it('a {"tool_calls": […]} wrapper keeps its shape inside <tool_call> and inside a fence: no strict detector reads it', () => {
    const wrapper = JSON.stringify({ tool_calls: [{ name: 'lookup', arguments: { code: 'A7' } }] });
    const tagged = text(`<tool_call>${wrapper}</tool_call>`);
    expect(tagged.calls[0]).toMatchObject({ via: 'xlam', name: 'lookup', args: { code: 'A7' } });
    expect(acceptedCalls(tagged, 'xml-tags')).toEqual([]);
    const fenced = text(`\`\`\`json\n${wrapper}\n\`\`\``);
    expect(fenced.calls[0]).toMatchObject({ via: 'fenced', fence: 'json', inner: 'xlam' });
  });

  it('a python call list inside <tool_call> is still the tag protocol, as before', () => {
    const r = text('<tool_call>[lookup(code="A7")]</tool_call>');
    expect(r.calls[0]).toMatchObject({ via: 'xml-tags', name: 'lookup', args: { code: 'A7' } });
    expect(acceptedCalls(r, 'xml-tags')).toHaveLength(1);
  });

  it("a fenced JSON call whose string value holds another family's tokens keeps the value as written", () => {
    const content = 'Mistral writes [TOOL_CALLS]name[ARGS]{"a": 1} and Llama <|python_tag|>{"name": "x"}';
    const reply = `\`\`\`json\n${JSON.stringify({ name: 'write_note', arguments: { content } })}\n\`\`\``;
    const r = text(reply);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'fenced', inner: 'json', name: 'write_note', args: { content } });
  });
});

describe("Command R+'s directly_answer", () => {
  const reply = (name: string) => `Action: \`\`\`json\n[{"tool_name": "${name}", "parameters": {}}]\n\`\`\``;

  it('is the model answering without a tool: no call, a diagnostic says so', () => {
    for (const name of ['directly_answer', 'directly-answer']) {
      const r = text(reply(name));
      expect(r.calls).toEqual([]);
      expect(r.diagnostics).toEqual([
        expect.objectContaining({
          code: 'other',
          message: `${name}: Command's way of answering without a tool, not a call`,
        }),
      ]);
    }
  });

  it('is a call when the request offered a tool of that name', () => {
    const r = parseResponse({ text: reply('directly_answer'), toolCalls: [] }, 'xml-tags', {
      tools: [{ name: 'directly_answer' }],
    });
    expect(r.calls.map((c) => c.name)).toEqual(['directly_answer']);
  });
});
