import { afterEach, describe, expect, it } from 'vitest';
import { startLlmMock } from '../mock-servers/llm/index.js';
import type { FaultPlan, LlmMockHandle } from '../mock-servers/llm/types.js';
import { anthropicFactory } from '../providers/anthropic/index.js';
import { ollamaFactory } from '../providers/ollama/index.js';
import { openaiFactory } from '../providers/openai/index.js';
import type { Provider, ProviderFactory } from '../src/contracts/provider.js';
import { ToolgaugeError } from '../src/errors.js';
import { firstTurn, weatherResponder } from './helpers/provider-fixtures.js';

// The three SDK providers over both transports: the default, the SDKs' own global fetch, and `transport: 'node-http'`
// (providers/shared/node-http-fetch.ts).
const env = { OPENAI_API_KEY: 'sk-test-openai-123456', ANTHROPIC_API_KEY: 'sk-ant-test-123456' };
const kinds: [string, ProviderFactory, string][] = [
  ['openai', openaiFactory, '/v1'],
  ['anthropic', anthropicFactory, ''],
  ['ollama', ollamaFactory, ''],
];

let mock: LlmMockHandle | undefined;
const providers: Provider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.close?.();
  await mock?.close();
  mock = undefined;
});

async function start(faults: FaultPlan = {}) {
  mock = await startLlmMock({ responder: weatherResponder, faults });
  return mock;
}

function make(factory: ProviderFactory, baseURL: string, options: Record<string, unknown>): Provider {
  const provider = factory.create('m', { baseURL, ...options }, { env });
  providers.push(provider);
  return provider;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolgaugeError);
  return (error as ToolgaugeError).code;
}

describe.each(kinds)('%s provider transports', (_name, factory, suffix) => {
  it.each([false, true])('stream %s: global fetch by default, node:http with transport: node-http', async (stream) => {
    const m = await start();
    const viaNodeHttp = make(factory, m.url + suffix, { stream, maxRetries: 0, transport: 'node-http' });
    const byDefault = make(factory, m.url + suffix, { stream, maxRetries: 0 });
    expect((await viaNodeHttp.generate(firstTurn())).toolCalls).toHaveLength(1);
    expect((await byDefault.generate(firstTurn())).toolCalls).toHaveLength(1);
    const [ours, theirs] = m.requests.map((r) => r.headers);
    // undici's fetch always adds the browser's `sec-fetch-mode`; node:http sends only what the SDK set.
    expect(ours?.['sec-fetch-mode']).toBeUndefined();
    expect(theirs?.['sec-fetch-mode']).toBe('cors');
    expect(m.requests[0]?.body).toEqual(m.requests[1]?.body);
  });

  it.each(['node-http', 'fetch'])(
    'transport %s: a slow reply times out, a 500 is retried, then it succeeds',
    async (transport) => {
      const m = await start({ byRequest: { 1: { delayMs: 5_000 }, 2: { status: 500, message: 'boom' } } });
      const slow = make(factory, m.url + suffix, { transport, timeoutMs: 150, maxRetries: 0 });
      expect(await codeOf(slow.generate(firstTurn()))).toBe('PROVIDER_TIMEOUT');
      const retrying = make(factory, m.url + suffix, { transport, maxRetries: 1, retryBaseMs: 1 });
      expect((await retrying.generate(firstTurn())).toolCalls).toHaveLength(1);
      expect(m.requests).toHaveLength(3);
    },
  );

  it('rejects an unknown transport with CONFIG_INVALID', () => {
    expect(() => factory.create('m', { baseURL: 'http://127.0.0.1:1', transport: 'curl' }, { env })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('transport') }),
    );
  });
});

describe.each(['node-http', 'fetch'])('transport %s: stream faults through the real SDKs', (transport) => {
  it.each([
    ['openai', '/v1'],
    ['anthropic', ''],
  ])(
    '%s: 429 Retry-After is honoured with exactly one retry; a cut stream is a network error',
    async (name, suffix) => {
      const factory = name === 'openai' ? openaiFactory : anthropicFactory;
      const m = await start({ byRequest: { 1: { status: 429, retryAfter: '0.2' }, 3: { truncateAfterFrames: 2 } } });
      const provider = make(factory, m.url + suffix, { transport, stream: true, maxRetries: 3, retryBaseMs: 1 });
      expect((await provider.generate(firstTurn())).toolCalls).toHaveLength(1);
      expect(m.requests).toHaveLength(2);
      expect((m.requests[1]?.at ?? 0) - (m.requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(200);
      const noRetry = make(factory, m.url + suffix, { transport, stream: true, maxRetries: 0 });
      expect(await codeOf(noRetry.generate(firstTurn()))).toBe('PROVIDER_NETWORK');
    },
  );
});
