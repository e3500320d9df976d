import { describe, expect, it } from 'vitest';
import { acceptedCalls, parseResponse } from './index.js';

const parse = (text: string) => parseResponse({ text, toolCalls: [] }, 'xml-tags');
const codes = (text: string) => parse(text).diagnostics.map((d) => d.code);
const tag = (body: string) => `<tool_call>\n${body}\n</tool_call>`;

describe('xml-tags: Hermes <tool_call> JSON as the families that write it do (Hermes, Qwen 2.5/3, Ernie, Granite 4, MiMo)', () => {
  it('one call, accepted by a strict xml-tags detector', () => {
    const r = parse(tag('{"name": "open_ticket", "arguments": {"title": "VPN down", "severity": 2}}'));
    expect(r.calls).toMatchObject([{ via: 'xml-tags', name: 'open_ticket', args: { title: 'VPN down', severity: 2 } }]);
    expect(acceptedCalls(r, 'xml-tags')).toHaveLength(1);
    expect(r.diagnostics).toEqual([]);
  });

  it('several calls after prose, with prose after them', () => {
    const r = parse(
      `Two tickets.\n${tag('{"name": "open_ticket", "arguments": {"title": "A"}}')}\n${tag('{"name": "open_ticket", "arguments": {"title": "B"}}')}\nFiled.`,
    );
    expect(r.calls.map((c) => c.args)).toEqual([{ title: 'A' }, { title: 'B' }]);
    expect(codes(`${tag('{"name": "a", "arguments": {}}')}${tag('{"name": "b", "arguments": {}}')}`)).toEqual([
      'multiple-calls',
    ]);
  });

  it('Ernie 4.5 writes the same tag after its reasoning', () => {
    const r = parse(
      `<think>The user wants a ticket.</think>\n\n${tag('{"name": "open_ticket", "arguments": {"title": "Printer"}}')}`,
    );
    expect(r.calls).toMatchObject([{ via: 'xml-tags', name: 'open_ticket' }]);
    expect(r.diagnostics).toEqual([]);
  });

  it("a call inside <think> is call-in-think (Trinity's reasoning included: its detector strips think tags, toolgauge does not)", () => {
    const r = parse(`<think>${tag('{"name": "open_ticket", "arguments": {}}')}</think>Nothing to file.`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a call the reply cut off is truncated and repaired, never accepted', () => {
    const r = parse('<tool_call>\n{"name": "open_ticket", "arguments": {"title": "Disk fu');
    expect(r.calls[0]).toMatchObject({
      via: 'xml-tags',
      name: 'open_ticket',
      args: { title: 'Disk fu' },
      truncated: true,
      repaired: true,
    });
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });

  it('a close tag cut short still closes the call', () => {
    const r = parse('<tool_call>{"name": "open_ticket", "arguments": {"title": "x"}}</tool_call');
    expect(r.calls[0]).toMatchObject({ via: 'xml-tags', truncated: true, repaired: false });
  });

  it('upper-case tags are read too', () => {
    expect(parse('<TOOL_CALL>{"name": "open_ticket", "arguments": {}}</TOOL_CALL>').calls).toHaveLength(1);
  });

  it('a body that is JSON but no call is a wrong-shape attempt', () => {
    const r = parse(tag('{"ticket": "VPN"}'));
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['wrong-shape']);
  });
});

describe('xml-tags: near misses', () => {
  it('prose that names the tag is not a call', () => {
    expect(parse('Wrap each call in <tool_call> and </tool_call> tags.')).toMatchObject({ calls: [] });
  });

  it('a call shown as an example is a quoted example', () => {
    expect(codes(`For example: ${tag('{"name": "open_ticket", "arguments": {}}')}`)).toEqual(['quoted-example']);
  });
});
