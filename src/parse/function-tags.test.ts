import { describe, expect, it } from 'vitest';
import type { ParseTool } from '../contracts/parse.js';
import { acceptedCalls, parseResponse } from './index.js';

const TOOLS: ParseTool[] = [
  {
    name: 'run_shell',
    inputSchema: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'integer' } } },
  },
];
const parse = (text: string) => parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools: TOOLS });
const summary = (text: string) => parse(text).calls.map((c) => [c.via, c.name, c.args, c.truncated === true]);
const fn = (name: string, params: string) => `<function=${name}>\n${params}</function>`;
const p = (name: string, value: string) => `<parameter=${name}>\n${value}\n</parameter>\n`;

describe('function-tags: <function=…><parameter=…> as Qwen3-Coder, Qwen 3.5, MiMo, Step 3.5, Nemotron 3 and Seed-OSS write it', () => {
  it('Qwen3-Coder / MiMo: inside <tool_call>, values converted by the schema', () => {
    expect(
      summary(`<tool_call>\n${fn('run_shell', p('command', 'ls -la') + p('timeout', '30'))}\n</tool_call>`),
    ).toEqual([['function-tags', 'run_shell', { command: 'ls -la', timeout: 30 }, false]]);
  });

  it('Seed-OSS: inside <seed:tool_call>, after its <seed:think> reasoning', () => {
    const r = parse(
      `<seed:think>List the files.</seed:think><seed:tool_call>\n${fn('run_shell', p('command', 'ls'))}\n</seed:tool_call>`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([['function-tags', 'run_shell', { command: 'ls' }]]);
    expect(r.diagnostics).toEqual([]);
  });

  it('several calls after prose, with prose after them', () => {
    const text = `Two commands.\n<tool_call>\n${fn('run_shell', p('command', 'pwd'))}\n</tool_call>\n<tool_call>\n${fn('run_shell', p('command', 'whoami'))}\n</tool_call>\nRunning.`;
    expect(summary(text).map((c) => c[2])).toEqual([{ command: 'pwd' }, { command: 'whoami' }]);
  });

  it('a string parameter keeps a number-like value as text', () => {
    expect(parse(fn('run_shell', p('command', '42'))).calls[0]?.args).toEqual({ command: '42' });
  });

  it('a call inside <think> is call-in-think', () => {
    const r = parse(`<think>${fn('run_shell', p('command', 'rm -rf /tmp/x'))}</think>I will not run that.`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a call the reply cut off inside a value is truncated with the text so far', () => {
    expect(summary('<tool_call>\n<function=run_shell>\n<parameter=command>\ngit sta')).toEqual([
      ['function-tags', 'run_shell', { command: 'git sta' }, true],
    ]);
  });

  it('a value holding markup keeps it', () => {
    const cmd = 'echo "<tool_call></function>" > x.txt';
    expect(parse(fn('run_shell', `<parameter=command>${cmd}</parameter>`)).calls[0]?.args).toEqual({ command: cmd });
  });

  it('never accepted by a strict xml-tags detector', () => {
    expect(acceptedCalls(parse(`<tool_call>${fn('run_shell', p('command', 'ls'))}</tool_call>`), 'xml-tags')).toEqual(
      [],
    );
  });
});

describe('function-tags: near misses', () => {
  it('prose that names the tag is not a call', () => {
    expect(parse('Use <function=NAME> with <parameter=KEY> for each argument.').calls).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${fn('run_shell', p('command', 'ls'))}`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});
