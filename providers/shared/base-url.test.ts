import { describe, expect, it } from 'vitest';
import { endpointOf, withQuery } from './base-url.js';

const auth = {
  providerId: 'openai-compatible:m',
  source: 'option baseURL',
  headers: undefined,
  bearerKeyFrom: undefined,
};
const basic = (credential: string) => `Basic ${Buffer.from(credential).toString('base64')}`;

describe('endpointOf: a base URL split into what fetch can send', () => {
  it('keeps a plain base URL as written, a bare origin without an added slash, a host without a scheme untouched', () => {
    expect(endpointOf('http://127.0.0.1:8000/v1', auth)).toEqual({
      baseURL: 'http://127.0.0.1:8000/v1',
      query: [],
      headers: undefined,
    });
    expect(endpointOf('http://127.0.0.1:11434', auth).baseURL).toBe('http://127.0.0.1:11434');
    expect(endpointOf('http://127.0.0.1:11434/', auth).baseURL).toBe('http://127.0.0.1:11434/');
    expect(endpointOf('127.0.0.1:11434', auth).baseURL).toBe('127.0.0.1:11434');
  });

  it('takes the userinfo out as Basic authorization (decoded; the user alone is a token) and keeps the query', () => {
    const e = endpointOf('https://me%40corp:p%2Fss@proxy.example/v1?key=abc%2Bd&region=eu#frag', {
      ...auth,
      headers: { 'X-Title': 'toolgauge' },
    });
    expect(e).toEqual({
      baseURL: 'https://proxy.example/v1',
      query: [
        ['key', 'abc+d'],
        ['region', 'eu'],
      ],
      headers: { 'X-Title': 'toolgauge', Authorization: basic('me@corp:p/ss') },
    });
    expect(endpointOf('https://TOKEN123@proxy.example', auth).headers).toEqual({ Authorization: basic('TOKEN123:') });
  });

  it('refuses a userinfo when the Authorization header is already taken, by a header option or a bearer key', () => {
    const url = 'https://u:secret-pass@proxy.example/v1';
    expect(() => endpointOf(url, { ...auth, headers: { authorization: 'Bearer x' } })).toThrow(
      'provider openai-compatible:m: option baseURL carries a user:password@ credential, sent as the Authorization header, which option headers.authorization takes too; keep one of them',
    );
    expect(() => endpointOf(url, { ...auth, source: 'OPENAI_BASE_URL', bearerKeyFrom: 'OPENAI_API_KEY' })).toThrow(
      /OPENAI_BASE_URL carries .* the API key from OPENAI_API_KEY takes too/,
    );
    expect(() => endpointOf(url, { ...auth, bearerKeyFrom: 'OPENAI_API_KEY' })).not.toThrow(/secret-pass/);
  });

  it('adds the query after the request’s own parameters', () => {
    expect(withQuery('http://h/api/chat', [['key', 'a b']])).toBe('http://h/api/chat?key=a+b');
    expect(withQuery('http://h/v1/messages?beta=true', [['key', 'k']])).toBe('http://h/v1/messages?beta=true&key=k');
    expect(withQuery('http://h/api/chat', [])).toBe('http://h/api/chat');
  });
});
