import { describe, expect, it } from 'vitest';
import { readBaseUrl, readKey } from '../../providers/shared/env.js';
import { parseProviderOptions } from '../../providers/shared/options.js';
import { wireTools } from '../../providers/shared/wire-tools.js';
import type { RenderedTool } from '../contracts/model.js';
import { REDACTED, redactSecrets, registerCredentials, registerSecret, restoreRedacted } from './redact.js';

describe('redactSecrets', () => {
  it('replaces registered keys deeply and blanks credential headers', () => {
    const key = readKey({ MY_KEY: 'sk-redact-test-0001' }, 'MY_KEY', 'p', true);
    registerCredentials({ headers: { 'X-Api-Key': 'hdr-secret-777', 'X-Title': 'toolgauge' } });
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

  it('registers credentials by their shape: headers, key-like options, URL userinfo and query', () => {
    registerCredentials({
      providers: [
        {
          id: 'x',
          options: {
            headers: {
              'Proxy-Authorization': `Basic ${Buffer.from('someone:tok-basic-10').toString('base64')}`,
              Authorization: 'Bearer tok-bearer-1',
              'X-Custom': 'sk-proj-0a1b2c3d4e5f6a7b',
              'X-Client': 'toolgauge-evaluation-harness',
              'X-Portal-Token': 'tok-custom-2',
              'X-Title': 'toolgauge',
            },
            baseURL: 'https://someone:tok-pass-3@proxy.example/v1?api_key=tok%2Dquery-4&region=europe',
            apiKey: 'tok-option-5',
            nested: { password: 'tok-password-6', note: 'an ordinary sentence' },
          },
        },
        {
          id: 'y',
          options: { url: 'https://tok-userinfo-7@git.example/x', endpoint: 'https://h.example/?key=tok-key-8' },
        },
      ],
    });
    const text =
      'sk-proj-0a1b2c3d4e5f6a7b tok-basic-10 tok-bearer-1 tok-custom-2 tok-pass-3 tok-query-4 tok%2Dquery-4 tok-option-5 tok-password-6 tok-userinfo-7 tok-key-8';
    expect(redactSecrets(text)).toBe(Array(11).fill(REDACTED).join(' '));
    // What is not a credential stays: the header named for a title, the user beside a password, the other query.
    const ordinary = 'toolgauge-evaluation-harness someone europe an ordinary sentence';
    expect(redactSecrets(ordinary)).toBe(ordinary);
    expect(readBaseUrl({ OPENAI_BASE_URL: ' https://u:tok-env-url-9@h.example/v1 ' }, 'OPENAI_BASE_URL')).toBe(
      'https://u:tok-env-url-9@h.example/v1',
    );
    expect(redactSecrets('https://u:tok-env-url-9@h.example/v1')).toBe(`https://u:${REDACTED}@h.example/v1`);
  });

  it('restoreRedacted takes the redacted strings back from the config they came from', () => {
    const config = {
      providers: [
        { id: 'a', options: { headers: { Authorization: 'Bearer tok-restore-1', 'X-Title': 'toolgauge' } } },
        { id: 'b', options: { baseURL: 'https://u:tok-restore-2@h.example/v1', temperature: 0 } },
      ],
      repeats: 2,
    };
    registerCredentials(config);
    const header = redactSecrets(config);
    expect(JSON.stringify(header)).not.toMatch(/tok-restore/);
    expect(restoreRedacted(header, config)).toEqual(config);
    // the header is what the run used: a value the file has changed since is not taken from it, nor a missing one
    const edited = {
      providers: [
        { id: 'a', options: {} },
        { id: 'b', options: { baseURL: 'https://u:tok-other-3@h2.example/v1', temperature: 0 } },
      ],
      repeats: 3,
    };
    expect(restoreRedacted(header, edited)).toEqual(header);
  });

  it('keeps a __proto__ key an ordinary key of the copy', () => {
    registerSecret('proto-secret-42');
    const value = JSON.parse('{"__proto__": {"polluted": "proto-secret-42"}, "other": 1}') as Record<string, unknown>;
    const out = redactSecrets(value);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"polluted":"${REDACTED}"},"other":1}`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a value found clean is redacted when a secret is registered later', () => {
    const tools = [{ name: 'lookup', description: 'uses sk-late-secret-4242 internally' }];
    const request = () => ({ tools, note: 'hello' });
    const before = request();
    expect(redactSecrets(before)).toBe(before); // clean for the secrets known now: returned as is
    registerSecret('sk-late-secret-4242');
    expect(redactSecrets(request()).tools[0]?.description).toBe(`uses ${REDACTED} internally`);
    // an extra secret of one call is honoured too
    registerSecret('unrelated-secret-1');
    const other = [{ text: 'token extra-secret-77' }];
    expect(redactSecrets({ other })).toEqual({ other: [{ text: 'token extra-secret-77' }] });
    expect(redactSecrets({ other }, ['extra-secret-77'])).toEqual({ other: [{ text: `token ${REDACTED}` }] });
  });

  it('wireTools converts a tool list into one API shape, afresh on every call', () => {
    const list: RenderedTool[] = [
      { name: 'a', description: 'A', parameters: { type: 'object' }, target: { server: 's', tool: 'a' } },
    ];
    const convert = (tools: readonly RenderedTool[]) => tools.map((t) => ({ type: 'function', function: t }));
    const first = wireTools(list, 'openai', convert);
    expect(first).toEqual([{ type: 'function', function: list[0] }]);
    expect(wireTools(list, 'openai', convert)).not.toBe(first);
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
    // a credential a run log redacted is not sent as one
    expect(() => parseProviderOptions('p', { headers: { Authorization: REDACTED } })).toThrow(
      /option headers\.Authorization holds a redacted credential/,
    );
  });
});
