import { describe, expect, it } from 'vitest';
import type { ParsedCall } from '../contracts/parse.js';
import { parseResponse, stripThink } from './index.js';

/** String values that hold a fence or tag-like text are argument text, in every shape a call can have. */
const parse = (text: string) => parseResponse({ text, toolCalls: [] }, 'xml-tags');
const json = (name: string, args: object) => JSON.stringify({ name, arguments: args });
const summary = (c: ParsedCall) => [c.name, c.args, c.via];

const FENCE = '```python\nprint("hi")\n```';
const CLOSE_TAG = 'the reply ends with </tool_call> and nothing else';
const OPEN_TAG = 'wrap each call in <tool_call> tags';
const EXAMPLE = 'Call it as <tool_call>{"name": "ping", "arguments": {}}</tool_call> and wait.';
const NEXT = json('get_time', { zone: 'CET' });

describe('<tool_call> JSON', () => {
  it.each([
    ['a close tag', CLOSE_TAG],
    ['an open tag', OPEN_TAG],
    ['a whole call in tags', EXAMPLE],
    ['a fence', FENCE],
    ['a think tag', 'models end reasoning with </think> here'],
  ])('a value holding %s neither ends nor starts a call', (_, content) => {
    const text = `<tool_call>\n${json('write_file', { path: 'notes.md', content })}\n</tool_call>\n<tool_call>${NEXT}</tool_call>`;
    const r = parse(text);
    expect(r.calls.map(summary)).toEqual([
      ['write_file', { path: 'notes.md', content }, 'xml-tags'],
      ['get_time', { zone: 'CET' }, 'xml-tags'],
    ]);
    expect(r.calls[0]?.span).toEqual([0, text.indexOf('\n<tool_call>')]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['multiple-calls']);
  });

  it('a single-quoted body (read after repair) keeps its tag-like value too', () => {
    const r = parse("<tool_call>{'name': 'write_file', 'arguments': {'content': 'a </tool_call> b'}}</tool_call>");
    expect(r.calls).toMatchObject([{ name: 'write_file', args: { content: 'a </tool_call> b' }, repaired: true }]);
  });

  it('a body cut off before the next tag still ends there (the value gives up at a tag outside its strings)', () => {
    const r = parse(`<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}\n<tool_call>${NEXT}</tool_call>`);
    expect(r.calls.map((c) => [c.name, c.args, c.truncated === true])).toEqual([
      ['get_weather', { city: 'Oslo' }, true],
      ['get_time', { zone: 'CET' }, false],
    ]);
  });
});

describe('bare JSON', () => {
  it.each([
    ['a fence', FENCE],
    ['an open tag', OPEN_TAG],
    ['a whole call in tags', EXAMPLE],
    ['a lone run of backticks', 'end a block with ```'],
  ])('a value holding %s is kept, and the call after it is read', (_, content) => {
    const text = `Writing the file now.\n${json('write_file', { path: 'notes.md', content })}\nThen the time: ${NEXT}`;
    const r = parse(text);
    expect(r.calls.map(summary)).toEqual([
      ['write_file', { path: 'notes.md', content }, 'bare-json'],
      ['get_time', { zone: 'CET' }, 'bare-json'],
    ]);
    expect(r.calls.every((c) => !c.truncated && !c.repaired)).toBe(true);
  });
});

describe('fenced JSON', () => {
  it.each([
    ['a fence', FENCE],
    ['an open tag', OPEN_TAG],
    ['a whole call in tags', EXAMPLE],
  ])('a value holding %s is kept, and the fence ends at its own close', (_, content) => {
    const text = `\`\`\`json\n${json('write_file', { path: 'notes.md', content })}\n\`\`\`\nDone.`;
    const r = parse(text);
    expect(r.calls.map(summary)).toEqual([['write_file', { path: 'notes.md', content }, 'fenced']]);
    expect(r.calls[0]).toMatchObject({ fence: 'json', inner: 'json', span: [0, text.length - '\nDone.'.length] });
    expect(r.calls[0]?.truncated).toBeUndefined();
  });
});

describe('python-call string arguments', () => {
  it.each([
    ['backticks', '[run_shell(cmd="echo `date` > now.txt")]', 'echo `date` > now.txt'],
    ['a fence with escaped line breaks', '[run_shell(cmd="```python\\nprint(1)\\n```")]', '```python\nprint(1)\n```'],
    ['a fence in single quotes', "[run_shell(cmd='```js\\nx()\\n```')]", '```js\nx()\n```'],
    ['a fence over real lines', '[run_shell(cmd="""```python\nprint(1)\n```""")]', '```python\nprint(1)\n```'],
    ['a think tag', '[run_shell(cmd="done </think> really")]', 'done </think> really'],
    ['a tool-call tag', '[run_shell(cmd="a <tool_call> b")]', 'a <tool_call> b'],
  ])('%s', (_, text, cmd) => {
    const r = parseResponse({ text, toolCalls: [] }, 'python-call');
    expect(r.calls.map(summary)).toEqual([['run_shell', { cmd }, 'python-call']]);
    expect(r.diagnostics).toEqual([]);
  });

  it('inside a ```python fence, a value holding ``` does not close it', () => {
    const r = parse('```python\n[write_file(content="```js\\nx()\\n```")]\n```');
    expect(r.calls).toMatchObject([
      { name: 'write_file', args: { content: '```js\nx()\n```' }, via: 'fenced', fence: 'python' },
    ]);
  });
});

describe('think tags inside a call are argument text; outside calls they mark reasoning', () => {
  it('a </think> in a JSON value no longer makes the calls before it reasoning', () => {
    const first = json('get_weather', { city: 'Oslo' });
    const r = parse(`${first}\n${json('write_file', { content: 'close it with </think>' })}`);
    expect(r.calls.map(summary)).toEqual([
      ['get_weather', { city: 'Oslo' }, 'bare-json'],
      ['write_file', { content: 'close it with </think>' }, 'bare-json'],
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['multiple-calls']);
  });

  it('a <think> in a value after a reasoning block does not open another block', () => {
    const r = parse(`<think>Write the file.</think>\n${json('write_file', { content: '<think>draft' })}`);
    expect(r.calls.map(summary)).toEqual([['write_file', { content: '<think>draft' }, 'json']]);
    // before, the block ran to the end of the reply and the call's end was read as cut off
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
  });

  it('in a raw parameter value inside <tool_call>', () => {
    const r = parse(
      '<tool_call>\n<function=write_file>\n<parameter=content>\nend </think> here\n</parameter>\n</function>\n</tool_call>',
    );
    expect(r.calls.map(summary)).toEqual([['write_file', { content: 'end </think> here' }, 'function-tags']]);
  });

  it('stripThink keeps a call whose value holds a think tag', () => {
    const text = json('write_file', { content: 'a </think> b' });
    expect(stripThink(text)).toBe(text);
    expect(stripThink(`<think>plan</think>${text}`)).toBe(text);
  });

  it('still markers: pre-filled reasoning ending in a quote, an unbalanced quote in prose, drafts in reasoning', () => {
    const answer = `<tool_call>${NEXT}</tool_call>`;
    for (const reasoning of [
      'The user said "CET".\n</think>\n',
      'They asked "what time is it</think>',
      'Two options (CET or UTC.\n\nThey wrote "CET</think>',
      `A draft: <tool_call>${json('get_time', { zone: 'UTC' })}</tool_call> no, CET.</think>\n`,
      'Maybe <tool_call> with UTC? No.</think>',
      '<think>I need {"zone": "CET"} for this.</think>',
    ]) {
      const r = parse(reasoning + answer);
      expect(r.calls.map(summary), reasoning).toEqual([['get_time', { zone: 'CET' }, 'xml-tags']]);
      expect(stripThink(reasoning + answer).trim(), reasoning).toBe(answer);
    }
    const drafted = parse(`A draft: <tool_call>${json('get_time', { zone: 'UTC' })}</tool_call>.</think>\n${answer}`);
    expect(drafted.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });
});
