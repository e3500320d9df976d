import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParseDocument } from '../src/api/parse-document.js';
import { FIXTURES, runCli } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const DIR = join(FIXTURES, 'parse');
const SUITE = join(DIR, 'suite.yaml');
const FUNCTION_TAGS = join(DIR, 'function-tags.txt');
const SAFE_NAME = join(DIR, 'safe-name.txt');
const REPLIES = join(DIR, 'replies.jsonl');

const tmp = tempDir('tg-parse-');
/** A file in a fresh temporary folder holding `text`. */
function file(name: string, text: string): string {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
}

async function parse(args: string[], stdin?: string) {
  const res = await runCli(['parse', ...args], undefined, stdin);
  expect(res.code, res.stderr).toBe(0);
  expect(res.stderr).toBe('');
  return res.stdout;
}

async function parseJson(args: string[], stdin?: string): Promise<ParseDocument> {
  return JSON.parse(await parse([...args, '--json'], stdin)) as ParseDocument;
}

async function parseJsonl(args: string[], stdin?: string): Promise<ParseDocument[]> {
  const out = await parse([...args, '--json'], stdin);
  const lines = out.split('\n').filter((l) => l !== '');
  return lines.map((l) => JSON.parse(l) as ParseDocument);
}

describe('toolgauge parse: one reply', () => {
  it('a file: each call with its tool, arguments, shape, span and strict verdict, then the diagnostics', async () => {
    const reply = file(
      'mixed.txt',
      [
        'Sure, reading it now.',
        '<think><tool_call>{"name": "f", "arguments": {"code": "1"}}</tool_call></think>',
        '```json',
        '{"name": "f", "arguments": {"code": "2"}}',
        '```',
        '<tool_call>{"name": "f", "arguments": {"code": "3"}}</tool_call>',
      ].join('\n'),
    );
    const out = await parse([reply, '--tools', join(DIR, 'tools-mcp.json')]);
    expect(out).not.toContain('\x1b[');
    expect(out).toMatch(/^\S*mixed\.txt · protocol xml-tags · tools: 2 from file .*tools-mcp\.json\n/m);
    expect(out).toContain('2 calls found; a strict xml-tags detector accepts 1\n');
    // the fenced call: its fence and inner shape, where it sits, and why a strict detector passes it by
    expect(out).toContain('call 1: f → f\n');
    expect(out).toContain('  args      {"code":"2"}\n');
    expect(out).toContain('  via       fenced (```json fence holding json)\n');
    expect(out).toMatch(/ {2}span {6}\d+–\d+ \(3:1–5:4\)\n/);
    expect(out).toContain(
      '  verdict   not accepted under xml-tags: found as json inside a ```json fence, and the xml-tags protocol reads only xml-tags calls\n',
    );
    expect(out).toContain('call 2: f → f\n');
    expect(out).toMatch(/ {2}span {6}\d+–\d+ \(6:1–6:65\)\n {2}verdict {3}accepted under xml-tags\n/);
    expect(out).toContain('diagnostics (2):\n');
    expect(out).toMatch(
      / {2}call-in-think {3}f call inside a reasoning block is not a call {2}at \d+–\d+ \(2:8–2:72\)\n/,
    );
    expect(out).toMatch(/ {2}multiple-calls {2}2 calls in one reply: f, f\n/);
  });

  it('--json: one document with the calls, their positions, resolution and verdict, and the diagnostics', async () => {
    const reply = file('cut.txt', 'ok\n<tool_call>{"name": "f", "arguments": {"code": "7",}}</tool_call');
    const doc = await parseJson([reply, '--tools', join(DIR, 'tools-anthropic.json')]);
    expect(doc).toMatchObject({
      input: expect.stringMatching(/cut\.txt$/),
      protocol: 'xml-tags',
      tools: { source: expect.stringMatching(/^file .*tools-anthropic\.json$/), names: ['f', 'math.factorial'] },
      accepted: 0,
      calls: [
        {
          name: 'f',
          args: { code: '7' },
          via: 'xml-tags',
          repaired: true,
          truncated: true,
          span: [3, 67],
          from: { line: 2, col: 1 },
          to: { line: 2, col: 65 },
          resolved: { how: 'exact', tool: 'f' },
          accepted: false,
          rejected: 'its arguments only parse after repair',
        },
      ],
    });
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['truncated', 'repaired']);
    expect(doc.diagnostics[0]?.from).toEqual({ line: 2, col: 1 });
  });

  it('a reply with no call says so and still lists the diagnostics (exit 0)', async () => {
    const reply = file('think.txt', '<think>\n<tool_call>{"name": "f", "arguments": {}}</tool_call>\n</think>\nNo.');
    const out = await parse([reply]);
    expect(out).toContain('no tool call found in the reply\n');
    expect(out).toMatch(
      /diagnostics \(1\):\n {2}call-in-think {2}f call inside a reasoning block is not a call {2}at 8–61 \(2:1–2:54\)\n/,
    );
    // without tools the parser cannot know tool-named XML: the output says how to give them
    expect(out).toContain('hint: without the offered tools (--suite S --case C, or --tools FILE)');

    const empty = await parse([file('prose.txt', 'Paris is the capital of France.')]);
    expect(empty).toContain('no tool call found in the reply\n\nno diagnostics\n');
  });

  it('standard input: `-`, or no FILE with a reply piped in', async () => {
    const reply = '<tool_call>{"name": "f", "arguments": {"code": "9"}}</tool_call>';
    const dash = await parseJson(['-'], reply);
    expect(dash).toMatchObject({ input: 'stdin', accepted: 1, calls: [{ name: 'f', args: { code: '9' } }] });
    const none = await parse([], reply);
    expect(none).toMatch(
      /^stdin · protocol xml-tags · no tools given\n1 call found; a strict xml-tags detector accepts it\n/,
    );
  });

  it('a reply that is itself one JSON call stays a reply, and --protocol json accepts it', async () => {
    const reply = '{"name": "f", "arguments": {"code": "5"}}\n';
    const asked = await parseJson(['--protocol', 'json'], reply);
    expect(asked).toMatchObject({ protocol: 'json', accepted: 1, calls: [{ via: 'json', accepted: true }] });
    const other = await parseJson([], reply);
    expect(other).toMatchObject({ protocol: 'xml-tags', accepted: 0, calls: [{ via: 'json', accepted: false }] });
  });

  it('with a suite, a text value is converted by the schema: "42" stays a string for a {type: string} parameter', async () => {
    const withSuite = await parseJson([FUNCTION_TAGS, '--suite', SUITE, '--case', 'lookup']);
    expect(withSuite).toMatchObject({
      tools: { source: 'suite parse-demo, case lookup', names: ['f', 'math.factorial'] },
      calls: [{ name: 'f', args: { code: '42' }, via: 'function-tags', resolved: { how: 'exact', tool: 'f' } }],
    });
  });

  it('without tools, the same value is read as a number (no schema says it is text)', async () => {
    const withoutTools = await parseJson([FUNCTION_TAGS]);
    expect(withoutTools.tools).toBeNull();
    expect(withoutTools.calls[0]).toMatchObject({ name: 'f', resolved: null });
    expect(withoutTools.calls[0]?.args).toEqual({ code: 42 });
  });

  it('a provider-safe name resolves to the offered tool (math_factorial → math.factorial)', async () => {
    const doc = await parseJson([SAFE_NAME, '--suite', SUITE, '--case', 'factorial']);
    expect(doc.calls).toHaveLength(1);
    expect(doc.calls[0]).toMatchObject({
      name: 'math_factorial',
      args: { number: 5 },
      resolved: { how: 'provider-safe', tool: 'math.factorial', called: 'math_factorial' },
      from: { line: 2, col: 1 },
    });
    const out = await parse([SAFE_NAME, '--suite', SUITE, '--case', 'factorial']);
    expect(out).toContain('call 1: math_factorial → math.factorial (provider-safe form of the name)\n');
    const unknown = await parse([SAFE_NAME, '--tools', file('other.json', '[{"name": "g", "inputSchema": {}}]')]);
    expect(unknown).toContain('call 1: math_factorial → no offered tool has this name\n');
  });

  it.each([
    ['an MCP tools array', 'tools-mcp.json'],
    ['an MCP tools/list result', 'tools-list.json'],
    ["OpenAI's tools", 'tools-openai.json'],
    ["Anthropic's tools", 'tools-anthropic.json'],
  ])('--tools reads %s', async (_shape, name) => {
    const fn = await parseJson([FUNCTION_TAGS, '--tools', join(DIR, name)]);
    expect(fn.tools).toEqual({
      source: expect.stringMatching(new RegExp(`^file .*${name}$`)),
      names: ['f', 'math.factorial'],
    });
    // the schema came through: the string parameter keeps its text
    expect(fn.calls[0]).toMatchObject({ args: { code: '42' }, resolved: { how: 'exact', tool: 'f' } });
    const safe = await parseJson([SAFE_NAME, '--tools', join(DIR, name)]);
    expect(safe.calls[0]?.resolved).toMatchObject({ how: 'provider-safe', tool: 'math.factorial' });
  });
});

describe('toolgauge parse: JSONL lines as grade reads them', () => {
  it('JSONL in, JSONL out: one document per line with its number, case and model; native for tool_calls', async () => {
    const docs = await parseJsonl([REPLIES, '--suite', SUITE]);
    expect(docs.map((d) => [d.line, d.case, d.model, d.protocol, d.accepted])).toEqual([
      [1, 'lookup', undefined, 'xml-tags', 0],
      [3, 'factorial', 'prod', 'native', 1],
      [4, 'chat', undefined, 'xml-tags', 0],
      [5, 'factorial', undefined, 'xml-tags', 1],
    ]);
    expect(docs[0]?.calls[0]).toMatchObject({ via: 'function-tags', args: { code: '42' } });
    expect(docs[1]?.calls[0]).toMatchObject({
      via: 'native',
      id: 'call_1',
      args: { number: 5 },
      resolved: { how: 'provider-safe', tool: 'math.factorial' },
      accepted: true,
    });
    expect(docs[1]?.calls[0]?.span).toBeUndefined();
    expect(docs[2]?.calls).toEqual([]);
    // a multi-turn line: every turn's calls, each tagged with its turn
    expect(docs[3]).toMatchObject({ turns: 2, calls: [{ turn: 1, name: 'math_factorial' }] });
    expect(docs.every((d) => d.tools?.source === `suite parse-demo, case ${d.case}`)).toBe(true);
  });

  it('JSONL read from standard input, told apart from a reply by its first line; a byte order mark is dropped', async () => {
    const text = `\ufeff${readFileSync(REPLIES, 'utf8')}`;
    const docs = await parseJsonl(['-'], text);
    expect(docs.map((d) => [d.input, d.line, d.case])).toEqual([
      ['stdin', 1, 'lookup'],
      ['stdin', 3, 'factorial'],
      ['stdin', 4, 'chat'],
      ['stdin', 5, 'factorial'],
    ]);
    // --format text reads the same input as one reply
    const whole = await parseJson(['-', '--format', 'text'], text);
    expect(whole.line).toBeUndefined();
    expect(whole.input).toBe('stdin');
  });

  it('human output: a heading per line, then its calls and diagnostics', async () => {
    const out = await parse([REPLIES, '--suite', SUITE]);
    expect(out).toMatch(
      /replies\.jsonl:3 · case factorial · model prod · protocol native · tools: 2 from suite parse-demo, case factorial\n/,
    );
    expect(out).toContain('call 1: math_factorial → math.factorial (provider-safe form of the name)\n');
    expect(out).toContain('  span      none (a native tool call, not text)\n');
    expect(out).toMatch(/replies\.jsonl:4 · case chat · protocol xml-tags · .*\nno tool call found in the reply\n/);
    expect(out).toMatch(/replies\.jsonl:5 · case factorial · 2 turns · .*\n.*\n\nturn 1, call 1: math_factorial/);
  });
});

describe('toolgauge parse: bad input exits 2 with one line naming the file and the place', () => {
  async function expectUsageError(args: string[], stdin: string | undefined, ...fragments: RegExp[]) {
    const res = await runCli(['parse', ...args], undefined, stdin);
    expect(res.code, res.stderr).toBe(2);
    const lines = res.stderr.split('\n').filter((l) => l.trim());
    expect(lines, res.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^toolgauge: /);
    for (const f of fragments) expect(lines[0]).toMatch(f);
    expect(res.stdout).toBe('');
  }

  it('a missing file', async () => {
    await expectUsageError([join(tmp, 'nope.txt')], undefined, /nope\.txt: file not found; pass a file/);
  });

  it('a JSONL line that is not JSON, or not a recorded output', async () => {
    const lines = `${JSON.stringify({ case: 'lookup', output: 'x' })}\n{oops\n`;
    await expectUsageError(
      [file('bad.jsonl', lines)],
      undefined,
      /bad\.jsonl:2: not JSON \(.*position 1.*\); each line must be \{"case": "<id>", "output": "…"\}/,
    );
    await expectUsageError(
      ['-'],
      `${JSON.stringify({ case: 'lookup', output: 'x' })}\n${JSON.stringify({ case: 'lookup' })}\n`,
      /stdin:2: needs "output", "tool_calls" or "turns"/,
      /--format text reads the input as one reply/,
    );
    await expectUsageError(
      [file('bad-call.jsonl', JSON.stringify({ case: 'lookup', tool_calls: [{ arguments: '{}' }] }))],
      undefined,
      /bad-call\.jsonl:1: tool_calls\.0: not a tool call; write \{"name", "arguments"\}/,
    );
  });

  it('an unknown suite, an unknown case, a JSONL case not in the suite', async () => {
    await expectUsageError(
      [FUNCTION_TAGS, '--suite', 'no-such-suite', '--case', 'x'],
      undefined,
      /--suite no-such-suite: no such suite file, and no bundled suite of that name/,
    );
    await expectUsageError(
      [FUNCTION_TAGS, '--suite', SUITE, '--case', 'nope'],
      undefined,
      /--case nope: no such case in .*suite\.yaml; valid: lookup, factorial, chat/,
    );
    await expectUsageError(
      [FUNCTION_TAGS, '--suite', SUITE],
      undefined,
      /--suite .*suite\.yaml: a plain reply needs --case C to pick the tools it was offered; cases: lookup, factorial, chat/,
    );
    await expectUsageError(
      [
        file(
          'cases.jsonl',
          `${JSON.stringify({ case: 'lookup', output: 'x' })}\n${JSON.stringify({ case: 'nope', output: 'y' })}\n`,
        ),
        '--suite',
        SUITE,
      ],
      undefined,
      /cases\.jsonl:2: case 'nope' is not in suite parse-demo \(.*suite\.yaml\); fix the id or pass the right --suite/,
    );
  });

  it('a bad tools file: not JSON, or an entry missing its schema, located by line and key', async () => {
    await expectUsageError(
      [FUNCTION_TAGS, '--tools', join(DIR, 'tools-not-json.json')],
      undefined,
      /--tools .*tools-not-json\.json:2:51: not JSON \(.*\); write a JSON array of tools or a tools\/list result/,
    );
    await expectUsageError(
      [FUNCTION_TAGS, '--tools', join(DIR, 'tools-bad-entry.json')],
      undefined,
      /--tools .*tools-bad-entry\.json:8:21: \[1\]\.input_schema: expected object, got string; expected an MCP tool/,
    );
    await expectUsageError(
      [FUNCTION_TAGS, '--tools', file('nameless.json', '{"tools": [{"inputSchema": {}}]}')],
      undefined,
      /--tools .*nameless\.json:1:12: tools\[0\]\.name: missing required key \(expected string\)/,
    );
    await expectUsageError(
      [FUNCTION_TAGS, '--tools', join(tmp, 'missing-tools.json')],
      undefined,
      /--tools .*missing-tools\.json: file not found/,
    );
  });

  it('an unknown protocol or format, --suite with --tools, --case without --suite', async () => {
    await expectUsageError(
      [FUNCTION_TAGS, '--protocol', 'yaml'],
      undefined,
      /--protocol yaml: unknown protocol; valid: xml-tags, json, python-call, tool-named-xml, native/,
    );
    await expectUsageError(
      [FUNCTION_TAGS, '--format', 'csv'],
      undefined,
      /--format csv: unknown input format; valid: text, jsonl/,
    );
    await expectUsageError(
      [FUNCTION_TAGS, '--suite', SUITE, '--case', 'lookup', '--tools', join(DIR, 'tools-mcp.json')],
      undefined,
      /--suite and --tools both give the offered tools; pass --suite S \(with --case C\) or --tools FILE, not both/,
    );
    await expectUsageError([FUNCTION_TAGS, '--case', 'lookup'], undefined, /--case lookup: needs --suite S/);
  });
});
