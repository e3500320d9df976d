import { describe, expect, it } from 'vitest';
import type { ParseTool } from '../../contracts/parse.js';
import { acceptedCalls, parseResponse } from '../index.js';

const TOOLS: ParseTool[] = [
  {
    name: 'convert_currency',
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
    },
  },
  { name: 'list_accounts', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'tag_invoice',
    inputSchema: { type: 'object', properties: { id: { type: 'string' }, tags: { type: 'array' } } },
  },
];

const parse = (text: string, tools: ParseTool[] = TOOLS) =>
  parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools });
const summary = (text: string, tools?: ParseTool[]) =>
  parse(text, tools).calls.map((c) => ({ name: c.name, args: c.args, via: c.via, truncated: c.truncated === true }));

/** GLM-4.5 / 4.6: the name, then each key and value on a line of its own. */
const glm45 = (name: string, pairs: Array<[string, string]>) =>
  `<tool_call>${name}\n${pairs.map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>\n`).join('')}</tool_call>`;
/** GLM-4.7: no line breaks. */
const glm47 = (name: string, pairs: Array<[string, string]>) =>
  `<tool_call>${name}${pairs.map(([k, v]) => `<arg_key>${k}</arg_key><arg_value>${v}</arg_value>`).join('')}</tool_call>`;

describe('GLM <arg_key>/<arg_value> calls', () => {
  it('one call between prose, values converted by the schema', () => {
    const r = parse(
      `I'll convert that.\n${glm45('convert_currency', [
        ['amount', '250'],
        ['from', 'EUR'],
        ['to', 'JPY'],
      ])}\nOne moment.`,
    );
    expect(r.calls).toMatchObject([
      { name: 'convert_currency', args: { amount: 250, from: 'EUR', to: 'JPY' }, via: 'glm', repaired: false },
    ]);
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('GLM-4.7 without line breaks, several calls; a string-typed value keeps its digits', () => {
    expect(
      summary(
        glm47('tag_invoice', [
          ['id', '00172'],
          ['tags', '["q3", "travel"]'],
        ]) + glm47('convert_currency', [['amount', '12.5']]),
      ),
    ).toEqual([
      { name: 'tag_invoice', args: { id: '00172', tags: ['q3', 'travel'] }, via: 'glm', truncated: false },
      { name: 'convert_currency', args: { amount: 12.5 }, via: 'glm', truncated: false },
    ]);
  });

  it('without tools, a whole JSON literal is typed and other text stays as written', () => {
    expect(
      summary(
        glm45('tag_invoice', [
          ['id', '00172'],
          ['note', 'paid in 2 parts'],
        ]),
        [],
      ),
    ).toEqual([{ name: 'tag_invoice', args: { id: '00172', note: 'paid in 2 parts' }, via: 'glm', truncated: false }]);
    expect(summary(glm45('convert_currency', [['amount', '7']]), [])[0]?.args).toEqual({ amount: 7 });
  });

  it('a Hermes <tool_call>{json}</tool_call> in the same reply stays xml-tags and strict', () => {
    const hermes = '<tool_call>{"name": "list_accounts", "arguments": {}}</tool_call>';
    const r = parse(`${hermes}\n${glm45('convert_currency', [['amount', '3']])}`);
    expect(r.calls.map((c) => [c.name, c.via])).toEqual([
      ['list_accounts', 'xml-tags'],
      ['convert_currency', 'glm'],
    ]);
    expect(acceptedCalls(r, 'xml-tags').map((c) => c.name)).toEqual(['list_accounts']);
    // Qwen3-Coder's <function=…> body in the same tag is untouched too
    const qwen = parse('<tool_call>\n<function=list_accounts>\n</function>\n</tool_call>');
    expect(qwen.calls.map((c) => c.via)).toEqual(['function-tags']);
  });

  it('a call with no arguments is the name alone: claimed for an offered tool; otherwise left to <tool_call>', () => {
    expect(summary('<tool_call>list_accounts</tool_call>')).toEqual([
      { name: 'list_accounts', args: {}, via: 'glm', truncated: false },
    ]);
    expect(summary('<tool_call>list_accounts\n</tool_call>')).toHaveLength(1);
    // unknown tool (or no tools): the <tool_call> reader reports a malformed attempt, as before
    const unknown = parse('<tool_call>close_books</tool_call>');
    expect(unknown.calls).toEqual([]);
    expect(unknown.diagnostics.map((d) => d.code)).toEqual(['wrong-shape']);
    expect(parse('<tool_call>list_accounts</tool_call>', []).calls).toEqual([]);
  });

  it('after a <think> block a call; inside one a call-in-think diagnostic and no call', () => {
    const call = glm45('list_accounts', [['status', 'open']]);
    expect(summary(`<think>Need the open accounts first.</think>\n${call}`)).toEqual([
      { name: 'list_accounts', args: { status: 'open' }, via: 'glm', truncated: false },
    ]);
    const inside = parse(`<think>Could run ${call} but there is no need.</think>There are three accounts.`);
    expect(inside.calls).toEqual([]);
    expect(inside.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a reply cut off mid-value, or with </tool_call cut short, is a truncated call', () => {
    expect(
      summary(
        '<tool_call>convert_currency\n<arg_key>from</arg_key>\n<arg_value>USD</arg_value>\n<arg_key>to</arg_key>\n<arg_value>CH',
      ),
    ).toEqual([{ name: 'convert_currency', args: { from: 'USD', to: 'CH' }, via: 'glm', truncated: true }]);
    expect(
      summary('<tool_call>convert_currency\n<arg_key>to</arg_key>\n<arg_value>CHF</arg_value>\n</tool_call'),
    ).toEqual([{ name: 'convert_currency', args: { to: 'CHF' }, via: 'glm', truncated: true }]);
  });

  it('a value holding tags and a code fence stays intact; a key without a value is a malformed attempt', () => {
    const note = '```xml\n<tool_call>x</tool_call>\n<arg_key>\n```';
    expect(summary(glm45('tag_invoice', [['id', note]]))[0]?.args).toEqual({ id: note });
    // a value whose close is missing ends with its tag: the call after it is still read
    const unclosed = parse(
      '<tool_call>tag_invoice\n<arg_key>id</arg_key>\n<arg_value>A-9</tool_call>\n<tool_call>{"name": "list_accounts", "arguments": {}}</tool_call>',
    );
    expect(unclosed.calls.map((c) => [c.name, c.args, c.via])).toEqual([
      ['tag_invoice', { id: 'A-9' }, 'glm'],
      ['list_accounts', {}, 'xml-tags'],
    ]);
    const r = parse('<tool_call>tag_invoice\n<arg_key>id</arg_key>\n<oops>1</oops>\n</tool_call>');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unparseable-arguments']);
  });
});

describe('GLM near-misses', () => {
  it('prose that explains the format is not a GLM call', () => {
    const prose = 'GLM puts each argument name in <arg_key> tags and its value in <arg_value> tags.';
    expect(parse(prose).calls).toEqual([]);
    expect(parse(prose).diagnostics).toEqual([]);
  });

  it('a name followed by prose, not <arg_key>, is not claimed (the <tool_call> reader sees it as before)', () => {
    const r = parse('<tool_call>convert_currency for 20 dollars</tool_call>');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.every((d) => !d.message.includes('GLM'))).toBe(true);
  });

  it('a call introduced as an example is a quoted example', () => {
    const r = parse(`For example:\n${glm45('list_accounts', [['status', 'open']])}`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});

/** Hunyuan (HY3): `<tool_sep>` after the name, calls inside `<tool_calls>`. */
const hy3 = (name: string, pairs: Array<[string, string]>) =>
  `<tool_call>${name}<tool_sep>\n${pairs.map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>\n`).join('')}</tool_call>`;
/** K2 Horizon: every tag spelled with `ifm|`, an optional type per value. */
const k2h = (name: string, pairs: Array<[string, string, string?]>) =>
  `<ifm|tool_call>${name}${pairs
    .map(
      ([k, v, t]) =>
        `<ifm|arg_key>${k}</ifm|arg_key>${t ? `<ifm|arg_type>${t}</ifm|arg_type>` : ''}<ifm|arg_value>${v}</ifm|arg_value>`,
    )
    .join('')}</ifm|tool_call>`;

describe('GLM dialects: Hunyuan <tool_sep>, K2 Horizon <ifm|…> tags', () => {
  it('Hunyuan: one call with <tool_sep> after the name, inside <tool_calls>, values by the schema', () => {
    const text = `<tool_calls>\n${hy3('convert_currency', [
      ['amount', '12.5'],
      ['to', 'NOK'],
    ])}\n</tool_calls>`;
    expect(summary(text)).toEqual([
      { name: 'convert_currency', args: { amount: 12.5, to: 'NOK' }, via: 'glm', truncated: false },
    ]);
    expect(acceptedCalls(parse(text), 'xml-tags')).toEqual([]);
  });

  it('Hunyuan: several calls after prose; a call with no arguments is the name and the separator', () => {
    const text = `Checking accounts first.\n<tool_calls>\n${hy3('list_accounts', [])}\n${hy3('tag_invoice', [
      ['id', 'F-9'],
      ['tags', '["q3"]'],
    ])}\n</tool_calls>\nOK.`;
    expect(summary(text)).toEqual([
      { name: 'list_accounts', args: {}, via: 'glm', truncated: false },
      { name: 'tag_invoice', args: { id: 'F-9', tags: ['q3'] }, via: 'glm', truncated: false },
    ]);
  });

  it('Hunyuan: a call inside <think> is call-in-think; a call the reply cut off is truncated', () => {
    const inside = parse(`<think>${hy3('list_accounts', [])}</think>You have two accounts.`);
    expect(inside.calls).toEqual([]);
    expect(inside.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
    expect(summary('<tool_call>convert_currency<tool_sep>\n<arg_key>to</arg_key>\n<arg_value>SE')).toEqual([
      { name: 'convert_currency', args: { to: 'SE' }, via: 'glm', truncated: true },
    ]);
  });

  it("Hunyuan's shipping tokens carry a suffix (<tool_call:opensource>); <think:opensource> is reasoning", () => {
    const x = ':opensource';
    const call = `<tool_call${x}>convert_currency<tool_sep${x}>\n<arg_key${x}>to</arg_key${x}>\n<arg_value${x}>DKK</arg_value${x}>\n</tool_call${x}>`;
    expect(summary(`<think${x}>one call</think${x}><tool_calls${x}>\n${call}\n</tool_calls${x}>`)).toEqual([
      { name: 'convert_currency', args: { to: 'DKK' }, via: 'glm', truncated: false },
    ]);
    const inside = parse(`<think${x}>${call}</think${x}>No conversion needed.`);
    expect(inside.calls).toEqual([]);
    expect(inside.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('K2 Horizon: a stated type converts as it says, over the schema', () => {
    const text = k2h('convert_currency', [
      ['amount', '30', 'string'],
      ['to', 'EUR'],
      ['from', 'true', 'boolean'],
    ]);
    expect(summary(text)).toEqual([
      { name: 'convert_currency', args: { amount: '30', to: 'EUR', from: true }, via: 'glm', truncated: false },
    ]);
  });

  it('K2 Horizon: several calls in <ifm|tool_calls> after prose, untyped values by the schema', () => {
    const text = `Two steps. <ifm|tool_calls>${k2h('list_accounts', [])}${k2h('convert_currency', [['amount', '7']])}</ifm|tool_calls> Then I report.`;
    expect(summary(text)).toEqual([
      { name: 'list_accounts', args: {}, via: 'glm', truncated: false },
      { name: 'convert_currency', args: { amount: 7 }, via: 'glm', truncated: false },
    ]);
  });

  it('K2 Horizon: a JSON call object as the body', () => {
    const text = '<ifm|tool_call>{"name": "convert_currency", "arguments": {"amount": 3, "to": "USD"}}</ifm|tool_call>';
    expect(summary(text)).toEqual([
      { name: 'convert_currency', args: { amount: 3, to: 'USD' }, via: 'glm', truncated: false },
    ]);
  });

  it('K2 Horizon: <ifm|think> reasoning is masked; a call inside it is call-in-think', () => {
    const r = parse(`<ifm|think>${k2h('list_accounts', [])}</ifm|think>Nothing to do.`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
    const after = parse(`<ifm|think_fast>quick</ifm|think_fast>${k2h('list_accounts', [])}`);
    expect(after.calls.map((c) => c.name)).toEqual(['list_accounts']);
  });

  it('K2 Horizon: a call the reply cut off keeps the values written so far', () => {
    const text =
      '<ifm|tool_call>convert_currency<ifm|arg_key>to</ifm|arg_key><ifm|arg_type>string</ifm|arg_type><ifm|arg_value>NO';
    expect(summary(text)).toEqual([{ name: 'convert_currency', args: { to: 'NO' }, via: 'glm', truncated: true }]);
  });
});

describe('GLM dialects: near misses', () => {
  it('prose naming <tool_sep> or <ifm|tool_call> is not a call', () => {
    const r = parse('Hunyuan puts <tool_sep> after the name; K2 Horizon writes <ifm|tool_call> tags.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a K2 Horizon call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${k2h('list_accounts', [])}`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});
