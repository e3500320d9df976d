import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLlmMock } from '../../mock-servers/llm/index.js';
import type { FaultPlan, LlmMockHandle, Responder } from '../../mock-servers/llm/types.js';
import { ToolgaugeError } from '../../src/errors.js';
import { firstTurn, weatherResponder } from '../../tests/helpers/provider-fixtures.js';
import { anthropicFactory } from '../anthropic/index.js';
import { ollamaFactory } from '../ollama/index.js';
import { openaiFactory } from '../openai/index.js';

const env = { OPENAI_API_KEY: 'sk-test-openai-123456', ANTHROPIC_API_KEY: 'sk-ant-test-123456' };
let mock: LlmMockHandle | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function start(faults: FaultPlan, responder: Responder = weatherResponder, apiKey?: string) {
  mock = await startLlmMock({ responder, faults, ...(apiKey ? { apiKey } : {}) });
  return mock;
}

async function caught(promise: Promise<unknown>): Promise<ToolgaugeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolgaugeError);
  return error as ToolgaugeError;
}

describe('retries, timeouts and typed errors through the real SDKs', () => {
  it('429 with Retry-After: 1 → exactly one retry, no sooner than the advertised second', async () => {
    const m = await start({ byRequest: { 1: { status: 429, retryAfter: '1' } } });
    const provider = openaiFactory.create('m', { baseURL: `${m.url}/v1`, maxRetries: 3, retryBaseMs: 1 }, { env });
    const r = await provider.generate(firstTurn());
    expect(r.toolCalls).toHaveLength(1);
    expect(m.requests).toHaveLength(2);
    const [a, b] = m.requests;
    expect((b?.at ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it.each([false, true])(
    'repeated 500 → PROVIDER_HTTP with status 500 after maxRetries (anthropic, stream %s)',
    async (stream) => {
      const m = await start({ byPath: { '/v1/messages': { status: 500, message: 'overloaded backend' } } });
      const provider = anthropicFactory.create('c', { baseURL: m.url, stream, maxRetries: 2, retryBaseMs: 1 }, { env });
      const error = await caught(provider.generate(firstTurn()));
      expect(error.code).toBe('PROVIDER_HTTP');
      expect(error.details).toMatchObject({ status: 500, provider: 'anthropic:c' });
      expect(error.message).toContain('HTTP 500');
      expect(error.message).toContain('overloaded backend');
      expect(m.requests).toHaveLength(3);
    },
  );

  it('a 400 is not retried', async () => {
    const m = await start({ byPath: { '/v1/chat/completions': { status: 400, message: 'bad tool schema' } } });
    const provider = openaiFactory.create('m', { baseURL: `${m.url}/v1`, maxRetries: 3, retryBaseMs: 1 }, { env });
    const error = await caught(provider.generate(firstTurn()));
    expect(error.code).toBe('PROVIDER_HTTP');
    expect(error.details?.status).toBe(400);
    expect(m.requests).toHaveLength(1);
  });

  it.each([
    ['openai', '/v1'],
    ['anthropic', ''],
  ])('a %s stream cut mid-way → PROVIDER_NETWORK; retried, it then succeeds', async (name, suffix) => {
    const m = await start({ byRequest: { 1: { truncateAfterFrames: 2 }, 2: { truncateAfterFrames: 2 } } });
    const factory = name === 'openai' ? openaiFactory : anthropicFactory;
    const noRetry = factory.create('m', { baseURL: m.url + suffix, stream: true, maxRetries: 0 }, { env });
    expect((await caught(noRetry.generate(firstTurn()))).code).toBe('PROVIDER_NETWORK');
    const withRetry = factory.create(
      'm',
      { baseURL: m.url + suffix, stream: true, maxRetries: 1, retryBaseMs: 1 },
      { env },
    );
    // request 2 is cut too, its retry (request 3) succeeds
    expect((await withRetry.generate(firstTurn())).toolCalls).toHaveLength(1);
    expect(m.requests).toHaveLength(3);
  });

  it('a malformed stream chunk → PROVIDER_BAD_RESPONSE, not retried', async () => {
    const m = await start({ byRequest: { 1: { malformed: true } } });
    const provider = openaiFactory.create('m', { baseURL: `${m.url}/v1`, stream: true, maxRetries: 2 }, { env });
    expect((await caught(provider.generate(firstTurn()))).code).toBe('PROVIDER_BAD_RESPONSE');
    expect(m.requests).toHaveLength(1);
  });

  it.each([
    ['openai', '/v1'],
    ['anthropic', ''],
    ['ollama', ''],
  ])('a slow %s reply → PROVIDER_TIMEOUT', async (name, suffix) => {
    const m = await start({ byRequest: { 1: { delayMs: 5_000 } } });
    const factory = { openai: openaiFactory, anthropic: anthropicFactory, ollama: ollamaFactory }[name]!;
    const provider = factory.create('m', { baseURL: m.url + suffix, timeoutMs: 150, maxRetries: 0 }, { env });
    const error = await caught(provider.generate(firstTurn()));
    expect(error.code).toBe('PROVIDER_TIMEOUT');
    expect(error.message).toContain('150 ms');
  });

  it.each([
    ['openai', '/v1', {}],
    ['openai (responses)', '/v1', { api: 'responses' }],
    ['anthropic', '', {}],
    ['ollama', '', {}],
  ])(
    'a %s stream that stalls mid-reply → PROVIDER_TIMEOUT within the bound, not a bad response',
    async (name, suffix, extra) => {
      const m = await start({ byRequest: { 1: { stallAfterFrames: 1 } } });
      const factory = name.startsWith('openai')
        ? openaiFactory
        : name === 'anthropic'
          ? anthropicFactory
          : ollamaFactory;
      const provider = factory.create(
        'm',
        { baseURL: m.url + suffix, stream: true, timeoutMs: 200, maxRetries: 0, ...extra },
        { env },
      );
      const t0 = Date.now();
      const error = await caught(provider.generate(firstTurn()));
      expect(error.code).toBe('PROVIDER_TIMEOUT');
      expect(Date.now() - t0).toBeLessThan(2_000);
    },
  );

  it('an AbortSignal cancels the request → ABORTED, not retried', async () => {
    const m = await start({ byRequest: { 1: { delayMs: 5_000 } } });
    const provider = openaiFactory.create('m', { baseURL: `${m.url}/v1`, maxRetries: 3 }, { env });
    const controller = new AbortController();
    const pending = provider.generate(firstTurn(), controller.signal);
    // Aborted while the mock holds the request (not after a fixed delay, which on a busy machine can come first).
    await vi.waitFor(() => expect(m.requests).toHaveLength(1), { timeout: 4_000 });
    controller.abort();
    expect((await caught(pending)).code).toBe('ABORTED');
    expect(m.requests).toHaveLength(1);
  });

  it('a connection refused → PROVIDER_NETWORK', async () => {
    const m = await start({});
    const url = m.url;
    await m.close();
    mock = undefined;
    const provider = ollamaFactory.create('m', { baseURL: url, maxRetries: 0 }, { env: {} });
    expect((await caught(provider.generate(firstTurn()))).code).toBe('PROVIDER_NETWORK');
  });
});

describe('keys never leak', () => {
  const canary = 'sk-canary-4f1d9e0b7c2a';

  it.each([
    ['openai', '/v1', 'OPENAI_API_KEY'],
    ['anthropic', '', 'ANTHROPIC_API_KEY'],
  ])(
    '%s: the canary key is absent from the response and from a 401 error that quotes it',
    async (name, suffix, variable) => {
      const echoKey: Responder = () => ({ text: `debug: you sent ${canary}` });
      const factory = name === 'openai' ? openaiFactory : anthropicFactory;
      const good = await start({}, echoKey, canary);
      const provider = factory.create('m', { baseURL: good.url + suffix }, { env: { [variable]: canary } });
      const r = await provider.generate(firstTurn());
      expect(JSON.stringify(r)).not.toContain(canary);
      expect(r.text).toContain('[REDACTED]');
      await good.close();

      mock = await startLlmMock({ responder: echoKey, apiKey: 'sk-the-right-one-999' });
      const wrong = factory.create('m', { baseURL: mock.url + suffix, maxRetries: 0 }, { env: { [variable]: canary } });
      const error = await caught(wrong.generate(firstTurn()));
      expect(error.code).toBe('PROVIDER_AUTH');
      expect(error.details?.status).toBe(401);
      expect(error.message).toContain('Incorrect API key');
      const everything = `${error.message} ${JSON.stringify(error.details)} ${String((error.cause as Error)?.message)} ${error.stack}`;
      expect(everything).not.toContain(canary);
    },
  );
});
