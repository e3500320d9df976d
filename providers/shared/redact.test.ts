import { describe, expect, it } from 'vitest';
import type { RenderedTool } from '../../src/contracts/model.js';
import { readKey, registerHeaderSecrets } from './env.js';
import { parseProviderOptions } from './options.js';
import { markStable, REDACTED, redactSecrets, registerSecret } from './redact.js';
import { wireTools } from './wire-tools.js';

describe('redactSecrets', () => {
  it('replaces registered keys deeply and blanks credential headers', () => {
    const key = readKey({ MY_KEY: 'sk-redact-test-0001' }, 'MY_KEY', 'p', true);
    registerHeaderSecrets({ 'X-Api-Key': 'hdr-secret-777', 'X-Title': 'toolgauge' });
    const value = {
      text: `key=${key} and hdr-secret-777`,
      list: [{ nested: `Bearer ${key}` }],
      headers: { Authorization: 'Bearer whatever', 'X-Title': 'toolgauge' },
    };
    const out = redactSecrets(value);
    expect(out).toEqual({
      text: `key=${REDACTED} and ${REDACTED}`,
      list: [{ nested: `Bearer ${REDACTED}` }],
      headers: { Authorization: REDACTED, 'X-Title': 'toolgauge' },
    });
    expect(value.text).toContain('sk-redact-test-0001'); // the input is not mutated
  });

  it('a stable subtree found clean is rescanned when a secret is registered later', () => {
    const tools = markStable([{ name: 'lookup', description: 'uses sk-late-secret-4242 internally' }]);
    const request = () => ({ tools, note: 'hello' });
    const before = request();
    expect(redactSecrets(before)).toBe(before); // clean for the secrets known now: returned as is
    registerSecret('sk-late-secret-4242');
    expect(redactSecrets(request()).tools[0]?.description).toBe(`uses ${REDACTED} internally`);
    // an extra secret of one call is honoured even inside a subtree remembered as clean
    registerSecret('unrelated-secret-1');
    const other = markStable([{ text: 'token extra-secret-77' }]);
    expect(redactSecrets({ other })).toEqual({ other: [{ text: 'token extra-secret-77' }] });
    expect(redactSecrets({ other }, ['extra-secret-77'])).toEqual({ other: [{ text: `token ${REDACTED}` }] });
  });

  it('wireTools converts a tool list once per shape, frozen', () => {
    const list: RenderedTool[] = [
      { name: 'a', description: 'A', parameters: { type: 'object' }, target: { server: 's', tool: 'a' } },
    ];
    let calls = 0;
    const convert = (tools: readonly RenderedTool[]) => {
      calls++;
      return tools.map((t) => ({ type: 'function', function: t }));
    };
    const first = wireTools(list, 'openai', convert);
    expect(wireTools(list, 'openai', convert)).toBe(first);
    expect(calls).toBe(1);
    expect(wireTools(list, 'ollama', convert)).not.toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
    expect(() => first.push({ type: 'function', function: list[0]! })).toThrow(TypeError);
  });

  it('names the variable (never a value) when a key is missing', () => {
    expect(() => readKey({}, 'SOME_API_KEY', 'openai:x', true)).toThrow(/SOME_API_KEY/);
    expect(readKey({}, 'SOME_API_KEY', 'openai:x', false)).toBeUndefined();
  });
});

describe('parseProviderOptions', () => {
  it('applies defaults and rejects unknown keys and bad values', () => {
    expect(parseProviderOptions('p', {})).toMatchObject({ stream: false, maxRetries: 3, concurrency: 4 });
    expect(() => parseProviderOptions('p', { maxTokenz: 1 })).toThrow(/unknown option.*'maxTokenz'.*valid options/);
    expect(() => parseProviderOptions('p', { baseURL: 'not a url' })).toThrow(/baseURL/);
    expect(() => parseProviderOptions('p', { toolChoice: 'always' })).toThrow(/toolChoice/);
  });
});
