import { describe, expect, it } from 'vitest';
import type { ParseTool } from '../../contracts/parse.js';
import { acceptedCalls, parseResponse } from '../index.js';

const TOOLS: ParseTool[] = [
  {
    name: 'create_issue',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        body: { type: 'string' },
        priority: { type: 'integer' },
        labels: { type: 'array', items: { type: 'string' } },
        draft: { type: 'boolean' },
      },
    },
  },
  { name: 'list_repos', inputSchema: { type: 'object', properties: { org: { type: 'string' } } } },
];

const parse = (text: string, tools: ParseTool[] = TOOLS) =>
  parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools });
const summary = (text: string, tools?: ParseTool[]) =>
  parse(text, tools).calls.map((c) => ({ name: c.name, args: c.args, via: c.via, truncated: c.truncated === true }));
const attempts = (text: string) =>
  parse(text).diagnostics.filter((d) => d.code === 'wrong-shape' || d.code === 'unparseable-arguments');

/** Markup with an optional tag prefix (the XML namespace spelling some replies carry on every tag). */
const markup = (prefix = '') => ({
  block: (invokes: string) => `<${prefix}function_calls>\n${invokes}</${prefix}function_calls>`,
  invoke: (name: string, params: string) => `<${prefix}invoke name="${name}">\n${params}</${prefix}invoke>\n`,
  param: (name: string, value: string) => `<${prefix}parameter name="${name}">${value}</${prefix}parameter>\n`,
});
const { block, invoke, param } = markup();

describe('invoke-xml: Anthropic-style <invoke> markup written as text', () => {
  it('one call between prose, values converted by the schema', () => {
    const r = parse(
      `I'll file it.\n${block(invoke('create_issue', param('title', 'Login fails') + param('priority', '2') + param('labels', '["auth", "bug"]') + param('draft', 'false')))}\nFiled.`,
    );
    expect(r.calls).toMatchObject([
      {
        name: 'create_issue',
        args: { title: 'Login fails', priority: 2, labels: ['auth', 'bug'], draft: false },
        via: 'invoke-xml',
        repaired: false,
      },
    ]);
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('several invokes in a block, and a second block', () => {
    const text = `${block(invoke('list_repos', param('org', 'acme')) + invoke('list_repos', param('org', 'globex')))}\nand\n${block(invoke('create_issue', param('title', 'Audit')))}`;
    expect(summary(text)).toEqual([
      { name: 'list_repos', args: { org: 'acme' }, via: 'invoke-xml', truncated: false },
      { name: 'list_repos', args: { org: 'globex' }, via: 'invoke-xml', truncated: false },
      { name: 'create_issue', args: { title: 'Audit' }, via: 'invoke-xml', truncated: false },
    ]);
  });

  it('the namespaced tag spelling, and an invoke written without its block', () => {
    const ns = markup(`${['an', 'tml'].join('')}:`);
    expect(summary(ns.block(ns.invoke('list_repos', ns.param('org', 'initech'))))).toEqual([
      { name: 'list_repos', args: { org: 'initech' }, via: 'invoke-xml', truncated: false },
    ]);
    expect(summary(`court\n\n${invoke('list_repos', param('org', 'umbrella'))}`)).toEqual([
      { name: 'list_repos', args: { org: 'umbrella' }, via: 'invoke-xml', truncated: false },
    ]);
  });

  it('a value holding tags and a code fence stays intact; without tools a JSON literal is typed', () => {
    const body = 'Steps:\n```html\n<form><input name="user"></form>\n```\nThen </b> breaks <parameter> parsing.';
    expect(summary(block(invoke('create_issue', param('body', body))))[0]?.args).toEqual({ body });
    expect(summary(block(invoke('create_issue', param('priority', '2') + param('title', '404'))), [])[0]?.args).toEqual(
      { priority: 2, title: 404 },
    );
  });

  it('after a <think> block a call; inside one a call-in-think diagnostic and no call', () => {
    const call = block(invoke('list_repos', param('org', 'acme')));
    expect(summary(`<think>First the repos of acme.</think>\n${call}`)).toHaveLength(1);
    const inside = parse(`<think>${call}</think>Acme has four repositories.`);
    expect(inside.calls).toEqual([]);
    expect(inside.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a reply cut off inside an invoke: a truncated call with the parameters written so far', () => {
    const r = parse(
      '<function_calls>\n<invoke name="create_issue">\n<parameter name="title">Crash on save</parameter>\n<parameter name="body">Steps to repro',
    );
    expect(r.calls).toMatchObject([
      {
        name: 'create_issue',
        args: { title: 'Crash on save', body: 'Steps to repro' },
        truncated: true,
        repaired: false,
      },
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['truncated']);
  });

  it('an invoke without a tool name is a malformed attempt', () => {
    const r = parse(block('<invoke name="">\n<parameter name="org">acme</parameter>\n</invoke>\n'));
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['wrong-shape']);
  });
});

describe('invoke-xml: near misses', () => {
  it('prose that explains the markup is not a call, nor an attempt', () => {
    const prose = 'Claude-style replies wrap calls in <function_calls>, with an <invoke> element per call.';
    expect(parse(prose).calls).toEqual([]);
    expect(attempts(prose)).toEqual([]);
    const attr = 'The invoke name="…" attribute names the tool; each parameter name="…" names an argument.';
    expect(parse(attr).calls).toEqual([]);
    expect(attempts(attr)).toEqual([]);
  });

  it('a call introduced as an example is a quoted example', () => {
    const r = parse(`For example: ${block(invoke('list_repos', param('org', 'acme')))}`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});

describe('invoke-xml: bodies (a JSON object, child elements, CDATA values)', () => {
  it('a JSON object as the body is the arguments', () => {
    const text = block('<invoke name="create_issue">{"title": "Crash on save", "priority": 1}</invoke>\n');
    expect(summary(text)).toEqual([
      { name: 'create_issue', args: { title: 'Crash on save', priority: 1 }, via: 'invoke-xml', truncated: false },
    ]);
  });

  it('child elements named after the parameters, converted by the schema; several invokes after prose', () => {
    const text = `Filing two.\n${block(
      '<invoke name="create_issue"><title>Slow search</title><priority>3</priority><draft>true</draft></invoke>\n' +
        '<invoke name="list_repos"><org>acme</org></invoke>\n',
    )}\nDone.`;
    expect(summary(text)).toEqual([
      {
        name: 'create_issue',
        args: { title: 'Slow search', priority: 3, draft: true },
        via: 'invoke-xml',
        truncated: false,
      },
      { name: 'list_repos', args: { org: 'acme' }, via: 'invoke-xml', truncated: false },
    ]);
  });

  it('child elements holding <item> elements are a list', () => {
    const text = block('<invoke name="create_issue"><labels><item>ui</item><item>perf</item></labels></invoke>\n');
    expect(parse(text).calls[0]?.args).toEqual({ labels: ['ui', 'perf'] });
  });

  it('a CDATA value is read as written, a close tag inside it included', () => {
    const body = 'Steps:\n1. open </parameter>\n2. <save>';
    const text = block(invoke('create_issue', param('body', `<![CDATA[${body}]]>`)));
    expect(parse(text).calls[0]?.args).toEqual({ body });
  });

  it('a JSON body the reply cut off is repaired and truncated', () => {
    const r = parse('<function_calls>\n<invoke name="create_issue">{"title": "Half');
    expect(r.calls[0]).toMatchObject({
      name: 'create_issue',
      args: { title: 'Half' },
      truncated: true,
      repaired: true,
    });
  });

  it('child elements inside <think> are call-in-think', () => {
    const r = parse(`<think>${block('<invoke name="list_repos"><org>acme</org></invoke>\n')}</think>No repos.`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });
});
