import { describe, expect, it } from 'vitest';
import { formatCall, protocolOfPrompt, protocolSection, pythonCall, TEXT_PROTOCOLS } from './call-protocol.js';

describe('call protocol', () => {
  const args = { filepath: 'test.xlsx', n: 2, ok: true, none: null, rows: [[1, 'a']], opts: { bold: false } };

  it('formats calls as the shared conventions define them', () => {
    expect(formatCall('xml-tags', 'read', { a: 1 })).toBe('<tool_call>{"name":"read","arguments":{"a":1}}</tool_call>');
    expect(formatCall('json', 'read', { a: 1 })).toBe('{"name":"read","arguments":{"a":1}}');
    expect(pythonCall('f', args)).toBe(
      'f(filepath="test.xlsx", n=2, ok=True, none=None, rows=[[1, "a"]], opts={"bold": False})',
    );
    expect(formatCall('python-call', 'f', {})).toBe('[f()]');
  });

  it('each protocol section carries its own example; noFences adds the rule of case 001', () => {
    expect(protocolSection('xml-tags')).toContain('<tool_call>{"name":"tool_name"');
    expect(protocolSection('json')).toContain('JSON array');
    expect(protocolSection('python-call')).toContain('[tool_name(parameter_name="value")]');
    for (const p of ['xml-tags', 'json', 'python-call'] as const) {
      expect(protocolSection(p)).not.toContain('```');
      expect(protocolSection(p, { noFences: true })).toContain('Do NOT wrap');
    }
  });

  it('the protocol a prompt asks for is read back from its section, wherever it sits in the prompt', () => {
    for (const p of TEXT_PROTOCOLS) {
      for (const noFences of [false, true]) {
        const prompt = `You are an assistant.\n\n# Tools\n- read_data\n\n${protocolSection(p, { noFences })}\n`;
        expect(protocolOfPrompt(prompt), `${p} noFences=${noFences}`).toBe(p);
      }
    }
    expect(protocolOfPrompt('You are an assistant. Call tools as JSON.')).toBeUndefined();
  });
});
