import { describe, expect, it } from 'vitest';
import { applyStop, pythonLiteral, writeCalls } from './reply-writer.js';

const a = { tool: 'read_data_from_excel', name: 'read_data_from_excel', args: { filepath: 'test.xlsx', n: 2 } };
const b = { tool: 'calc', name: 'calc', args: { ok: true, v: null, list: [1, 'x'] } };

describe('reply writer', () => {
  it('writes the exact xml-tags, json and python-call shapes', () => {
    expect(writeCalls([a, b], 'xml-tags').text).toBe(
      '<tool_call>{"name": "read_data_from_excel", "arguments": {"filepath":"test.xlsx","n":2}}</tool_call>\n' +
        '<tool_call>{"name": "calc", "arguments": {"ok":true,"v":null,"list":[1,"x"]}}</tool_call>',
    );
    expect(JSON.parse(writeCalls([a], 'json').text)).toEqual({ name: a.name, arguments: a.args });
    expect(JSON.parse(writeCalls([a, b], 'json').text)).toHaveLength(2);
    expect(writeCalls([a, b], 'python-call').text).toBe(
      '[read_data_from_excel(filepath="test.xlsx", n=2), calc(ok=True, v=None, list=[1, "x"])]',
    );
    expect(pythonLiteral({ k: false })).toBe('{"k": False}');
  });

  it('writes native calls with call_<n> ids and JSON-string arguments', () => {
    const reply = writeCalls([a, b], 'native', { idOffset: 2 });
    expect(reply.text).toBe('');
    expect(reply.toolCalls.map((c) => c.id)).toEqual(['call_3', 'call_4']);
    expect(JSON.parse(String(reply.toolCalls[0]?.arguments))).toEqual(a.args);
  });

  it('fences in each kind, and malformed calls do not parse', () => {
    expect(writeCalls([a], 'xml-tags', { fence: 'xml' }).text).toMatch(/^```xml\n<tool_call>.*<\/tool_call>\n```$/s);
    const caseStudy = writeCalls([a], 'xml-tags', { fence: 'tool_call' }).text;
    expect(caseStudy.startsWith('```tool_call\n{\n  "id": "call_001",\n  "tool_name": "read_data_from_excel"')).toBe(
      true,
    );
    expect(writeCalls([a], 'json', { fence: 'json' }).text).toMatch(/^```json\n\{"name".*\}\n```$/s);
    const broken = writeCalls([a], 'xml-tags', { malformed: true }).text;
    const inner = /<tool_call>(.*)<\/tool_call>/s.exec(broken)?.[1] ?? '';
    expect(() => JSON.parse(inner)).toThrow();
    expect(() => JSON.parse(String(writeCalls([a], 'native', { malformed: true }).toolCalls[0]?.arguments))).toThrow();
    expect(writeCalls([a], 'python-call', { malformed: true }).text.endsWith(')')).toBe(true);
  });

  it('cuts text at the earliest stop sequence', () => {
    expect(applyStop('a<tool_call>{}</tool_call>b', ['</tool_call>'])).toEqual({
      text: 'a<tool_call>{}',
      stopped: true,
    });
    expect(applyStop('plain', ['</tool_call>'])).toEqual({ text: 'plain', stopped: false });
  });
});
