import { describe, expect, it } from 'vitest';
import { parseDocument } from '../api/parse-document.js';
import { formatParseDocument, paintFor } from './parse-output.js';

describe('parse output in colour', () => {
  it('holds no escape sequence but its own colours: every part from the reply is made visible', () => {
    const text =
      '\u001b]0;title\u0007<tool_call>{"name": "x\\u001b[2K\\r\\ngate: passed", "arguments": {"q": "\\u009b31m\\u0000"}}</tool_call>\r\n' +
      '```json\n{"name": "y\\u001b[8m", "arguments": {}}\n```';
    const doc = parseDocument(
      { input: 'in\u001b[2K', case: 'c\r', model: 'm\u202e' },
      [{ text, toolCalls: [] }],
      'xml-tags',
      {
        source: 'suite s\u0007',
        tools: [],
      },
    );
    const out = formatParseDocument(doc, paintFor({ isTTY: true }));
    expect(out).toContain('\u001b[1m'); // it is in colour
    expect(out.replace(/\u001b\[\d+m/g, '')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(out).toContain(String.raw`x\x1b[2K\r\ngate: passed`);
    expect(out).toContain(String.raw`in\x1b[2K`);
    expect(out).not.toMatch(/^gate: passed/m);
  });
});
