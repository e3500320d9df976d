import { describe, expect, it } from 'vitest';
import type { ParseTool } from '../../contracts/parse.js';
import { acceptedCalls, parseResponse } from '../index.js';

const TOOLS: ParseTool[] = [
  { name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  {
    name: 'write_to_file',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' }, line_count: { type: 'integer' } },
    },
  },
  { name: 'list_code_definition_names', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'notes.append',
    inputSchema: { type: 'object', properties: { text: { type: 'string' }, pinned: { type: 'boolean' } } },
  },
];

const parse = (text: string, tools: ParseTool[] = TOOLS) =>
  parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools });
const summary = (text: string, tools?: ParseTool[]) =>
  parse(text, tools).calls.map((c) => ({ name: c.name, args: c.args, via: c.via, truncated: c.truncated === true }));
const attempts = (text: string) =>
  parse(text).diagnostics.filter((d) => d.code === 'wrong-shape' || d.code === 'unparseable-arguments');

const readFile = (path: string) => `<read_file>\n<path>${path}</path>\n</read_file>`;

describe('tool-named XML (Cline / Roo Code)', () => {
  it('one call between prose', () => {
    const r = parse(`Let me open the config first.\n\n${readFile('src/config.ts')}\n\nThen I will edit it.`);
    expect(r.calls).toMatchObject([
      { name: 'read_file', args: { path: 'src/config.ts' }, via: 'tool-named-xml', repaired: false },
    ]);
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('several calls; a <content> value holding code with < and its own tag names is text, converted by schema', () => {
    const content = [
      'export const Row = () => (',
      '  <tr><td>{a < b ? "x" : "y"}</td><content>inner</content></tr>',
      ');',
    ].join('\n');
    const text = `<write_to_file>\n<path>src/row.tsx</path>\n<content>\n${content}\n</content>\n<line_count>3</line_count>\n</write_to_file>\n${readFile('src/app.tsx')}`;
    expect(summary(text)).toEqual([
      {
        name: 'write_to_file',
        args: { path: 'src/row.tsx', content, line_count: 3 },
        via: 'tool-named-xml',
        truncated: false,
      },
      { name: 'read_file', args: { path: 'src/app.tsx' }, via: 'tool-named-xml', truncated: false },
    ]);
  });

  it('a value holding a code fence stays intact', () => {
    const content = '```bash\nnpm test -- --watch\n```';
    expect(
      summary(`<write_to_file>\n<path>README.md</path>\n<content>\n${content}\n</content>\n</write_to_file>`)[0]?.args,
    ).toEqual({
      path: 'README.md',
      content,
    });
  });

  it('a tool with no parameters, a JSON body, and a tool called by its provider-safe name', () => {
    expect(summary('<list_code_definition_names>\n</list_code_definition_names>')).toEqual([
      { name: 'list_code_definition_names', args: {}, via: 'tool-named-xml', truncated: false },
    ]);
    expect(summary('<read_file>{"path": "a.py"}</read_file>')[0]?.args).toEqual({ path: 'a.py' });
    expect(summary('<notes_append>\n<text>ship it</text>\n<pinned>true</pinned>\n</notes_append>')).toEqual([
      { name: 'notes_append', args: { text: 'ship it', pinned: true }, via: 'tool-named-xml', truncated: false },
    ]);
  });

  it('only offered tools: without tools, or for a tool the request did not offer, nothing is read', () => {
    expect(parse(readFile('src/a.ts'), []).calls).toEqual([]);
    expect(parse('<search_files>\n<regex>TODO</regex>\n</search_files>').calls).toEqual([]);
  });

  it('after a <think> block a call; inside one a call-in-think diagnostic and no call', () => {
    expect(summary(`<think>I need to see the file.</think>\n${readFile('lib/x.rb')}`)).toHaveLength(1);
    const inside = parse(`<think>${readFile('lib/x.rb')} would show it.</think>I remember the file.`);
    expect(inside.calls).toEqual([]);
    expect(inside.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a reply cut off after a parameter opened is a truncated call; with none opened it is not a call', () => {
    const r = parse('<write_to_file>\n<path>src/new.ts</path>\n<content>\nexport const a = 1;\nexport con');
    expect(r.calls).toMatchObject([
      {
        name: 'write_to_file',
        args: { path: 'src/new.ts', content: 'export const a = 1;\nexport con' },
        truncated: true,
        repaired: false,
      },
    ]);
    expect(parse('I will now call <read_file>').calls).toEqual([]);
    expect(parse('<read_file>\n').calls).toEqual([]);
  });
});

describe('tool-named XML near-misses', () => {
  it('a tool name in backticks, and an open tag with no close in prose, are not calls', () => {
    const prose = 'Use the `read_file` tool, written as `<read_file>`, or <read_file> followed by a path element.';
    expect(parse(prose).calls).toEqual([]);
    expect(attempts(prose)).toEqual([]);
  });

  it('a tool tag around plain text is not read as a call', () => {
    const r = parse('The <read_file> tool and the </read_file> close tag frame a call.');
    expect(r.calls).toEqual([]);
    expect(attempts('The <read_file> tool and the </read_file> close tag frame a call.')).toEqual([]);
  });

  it('a call introduced as an example is a quoted example', () => {
    const r = parse(`For example:\n${readFile('src/a.ts')}`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});
