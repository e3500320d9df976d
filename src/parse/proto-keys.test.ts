import { describe, expect, it } from 'vitest';
import type { ParseTool } from '../contracts/parse.js';
import { parseResponse } from './index.js';

/** A tool whose schema names a parameter `__proto__` (JSON Schema allows any property name). */
const TOOLS: ParseTool[] = [
  {
    name: 'tag',
    // Parsed from JSON: in an object literal, `__proto__:` would set the prototype, not a property.
    inputSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"label":{"type":"string"}}}'),
  },
];
const Q = '<|"|>';

/** Each family's way of writing tag(__proto__="x", label="y"). */
const REPLIES: Record<string, string> = {
  'function-tags': '<function=tag>\n<parameter=__proto__>x</parameter>\n<parameter=label>y</parameter>\n</function>',
  'python-call': '[tag(__proto__="x", label="y")]',
  gemma: `<|tool_call>call:tag{__proto__:${Q}x${Q},label:${Q}y${Q}}<tool_call|>`,
  glm: '<tool_call>tag<arg_key>__proto__</arg_key><arg_value>x</arg_value><arg_key>label</arg_key><arg_value>y</arg_value></tool_call>',
  'invoke-xml':
    '<function_calls>\n<invoke name="tag">\n<parameter name="__proto__">x</parameter>\n<parameter name="label">y</parameter>\n</invoke>\n</function_calls>',
  'tool-named-xml': '<tag>\n<__proto__>x</__proto__>\n<label>y</label>\n</tag>',
  'bare JSON': '{"name": "tag", "arguments": {"__proto__": "x", "label": "y"}}',
};

describe('an argument named __proto__ is read as an argument in every family', () => {
  for (const [family, text] of Object.entries(REPLIES)) {
    it(family, () => {
      const r = parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools: TOOLS });
      expect(r.calls.length, JSON.stringify(r.diagnostics)).toBe(1);
      const args = r.calls[0]!.args as Record<string, unknown>;
      expect(Object.keys(args).sort()).toEqual(['__proto__', 'label']);
      expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toBe('x');
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(JSON.parse(JSON.stringify(args))).toEqual(JSON.parse('{"__proto__":"x","label":"y"}'));
    });
  }
});
