import { describe, expect, it } from 'vitest';
import type { ParseResult } from '../contracts/parse.js';
import { callsFromValue } from './call-object.js';
import { acceptedCalls, parseResponse } from './index.js';

const parse = (text: string): ParseResult => parseResponse({ text, toolCalls: [] }, 'json');
const codes = (r: ParseResult) => r.diagnostics.map((d) => d.code);

function notAccepted(r: ParseResult): void {
  for (const protocol of ['xml-tags', 'json', 'python-call'] as const) expect(acceptedCalls(r, protocol)).toEqual([]);
}

describe('xlam: {"tool_calls": [{"name", "arguments"}]}', () => {
  it('reads the calls of the wrapper as the whole reply, thought and all', () => {
    const text =
      '{"thought": "Two conversions are needed.", "tool_calls": [{"name": "convert", "arguments": {"usd": 10}}, ' +
      '{"name": "convert", "arguments": {"usd": 25}}]}';
    const r = parse(text);
    expect(r.calls.map((c) => [c.via, c.name, c.args, c.span])).toEqual([
      ['xlam', 'convert', { usd: 10 }, [0, text.length]],
      ['xlam', 'convert', { usd: 25 }, [0, text.length]],
    ]);
    expect(r.calls.every((c) => !c.repaired && !c.truncated)).toBe(true);
    notAccepted(r);
  });

  it('reads the wrapper after prose, and one the reply cut off as truncated and repaired', () => {
    const r = parse('Here you go: {"tool_calls": [{"name": "lookup_zip", "arguments": {"zip": "0150"}}]} Done.');
    expect(r.calls[0]).toMatchObject({ via: 'xlam', name: 'lookup_zip', args: { zip: '0150' } });
    const cut = parse('{"tool_calls": [{"name": "lookup_zip", "arguments": {"zip": "01');
    expect(cut.calls[0]).toMatchObject({
      via: 'xlam',
      name: 'lookup_zip',
      args: { zip: '01' },
      truncated: true,
      repaired: true,
    });
  });

  it('finds the wrapper after a <think> block; inside one it is call-in-think', () => {
    const wrapper = '{"tool_calls": [{"name": "lookup_zip", "arguments": {"zip": "5003"}}]}';
    const after = parse(`<think>Bergen</think>${wrapper}`);
    expect(after.calls[0]).toMatchObject({ via: 'xlam', name: 'lookup_zip' });
    const inside = parse(`<think>${wrapper}</think>Bergen.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const body = '```yaml\na: 1\n```\n<tool_call>{"name": "x"}</tool_call> `w`';
    const r = parse(JSON.stringify({ tool_calls: [{ name: 'create_gist', arguments: { body } }] }));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'xlam', name: 'create_gist', args: { body } });
  });

  it('prose that mentions tool_calls is no call', () => {
    const r = parse('The message carries a "tool_calls" list, e.g. {"tool_calls": "none yet"}, when the model calls.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('an empty tool_calls list is no call', () => {
    const r = parse('{"thought": "Nothing to call.", "tool_calls": []}');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('openai-json: OpenAI-shaped calls echoed as text', () => {
  it('reads OpenAI elements: the id, and arguments as the JSON string the format has (not double-encoded)', () => {
    const r = parse(
      '{"tool_calls": [{"id": "call_7fQ", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Oslo\\"}"}}]}',
    );
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'openai-json',
      name: 'get_weather',
      id: 'call_7fQ',
      args: { city: 'Oslo' },
    });
    expect(codes(r)).toEqual([]);
    notAccepted(r);
  });

  it('reads a whole assistant message echoed as text, after prose', () => {
    const r = parse(
      'Response: {"role": "assistant", "content": null, "tool_calls": [' +
        '{"id": "call_1", "type": "function", "function": {"name": "list_repos", "arguments": "{\\"org\\": \\"acme\\"}"}}, ' +
        '{"id": "call_2", "type": "function", "function": {"name": "list_teams", "arguments": "{}"}}]}',
    );
    expect(r.calls.map((c) => [c.via, c.name, c.id, c.args])).toEqual([
      ['openai-json', 'list_repos', 'call_1', { org: 'acme' }],
      ['openai-json', 'list_teams', 'call_2', {}],
    ]);
  });

  it('reads the legacy function_call of an assistant message', () => {
    const r = parse(
      '{"role": "assistant", "content": null, "function_call": {"name": "get_time", "arguments": "{\\"tz\\": \\"UTC\\"}"}}',
    );
    expect(r.calls[0]).toMatchObject({ via: 'openai-json', name: 'get_time', args: { tz: 'UTC' } });
  });

  it('an assistant message that called nothing is no call', () => {
    const r = parse('{"role": "assistant", "content": "Hello!", "tool_calls": null}');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('plain call objects keep their behaviour', () => {
  it('a call object is json as the whole reply, bare-json in prose, and a list of them too', () => {
    expect(parse('{"name": "a", "arguments": {"x": 1}}').calls[0]).toMatchObject({ via: 'json', name: 'a' });
    expect(parse('Do: {"name": "a", "arguments": {"x": 1}} now').calls[0]).toMatchObject({ via: 'bare-json' });
    expect(parse('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]').calls.map((c) => c.via)).toEqual([
      'json',
      'json',
    ]);
  });

  it('an OpenAI-shaped object without a wrapper stays json, its string arguments double-encoded as before', () => {
    const r = parse('{"id": "c1", "type": "function", "function": {"name": "a", "arguments": "{\\"x\\": 1}"}}');
    expect(r.calls[0]).toMatchObject({ via: 'json', name: 'a', id: 'c1', args: { x: 1 } });
    expect(codes(r)).toEqual(['double-encoded']);
  });

  it("takes Cohere's tool_call_id as the call id when there is no id", () => {
    const [call] = callsFromValue({ tool_call_id: '3', tool_name: 'f', parameters: {} }, true);
    expect(call).toMatchObject({ name: 'f', id: '3' });
    expect(call?.shape).toBeUndefined();
  });

  it('callsFromValue says which wrapper the calls came from', () => {
    const xlam = callsFromValue({ tool_calls: [{ name: 'f', arguments: {} }] }, true);
    const openai = callsFromValue(
      { tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] },
      true,
    );
    expect(xlam.map((c) => c.shape)).toEqual(['xlam']);
    expect(openai.map((c) => c.shape)).toEqual(['openai-json']);
  });
});

describe('xlam: llama.cpp\'s generic {"tool_call": {…}}', () => {
  it('reads one call, as the whole reply or after prose', () => {
    const r = parse('{"tool_call": {"name": "lookup_zip", "arguments": {"zip": "5003"}}}');
    expect(r.calls[0]).toMatchObject({ via: 'xlam', name: 'lookup_zip', args: { zip: '5003' } });
    notAccepted(r);
    expect(parse('Looking it up: {"tool_call": {"name": "lookup_zip", "arguments": {}}}').calls[0]).toMatchObject({
      via: 'xlam',
      name: 'lookup_zip',
    });
  });
});

describe('xlam: near misses', () => {
  it('a {"tool_call": …} whose value is not a call is no call', () => {
    expect(parse('{"tool_call": {"note": "none needed"}}').calls).toEqual([]);
    expect(parse('{"tool_call": "lookup_zip"}').calls).toEqual([]);
  });

  it('a tool_calls list of things that are not calls is no call', () => {
    expect(parse('{"tool_calls": [{"note": "later"}]}').calls).toEqual([]);
  });
});
