import { describe, expect, it } from 'vitest';
import { readKey, registerHeaderSecrets } from './env.js';
import { parseProviderOptions } from './options.js';
import { REDACTED, redactSecrets } from './redact.js';

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
