import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmMockHandle, startLlmMock } from '../mock-servers/llm/index.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';
import { suiteOracleResponder } from './fixtures/providers-mock/oracle-responder.js';

const SUITE = join(FIXTURES, 'mini.yaml');
const HUGE_PROMPT = "What's the capital of France?";
/** 3 MB of text: three times the 1 MiB limit the providers are given. */
const HUGE_REPLY = 'Paris. '.repeat(450_000);

let mock: LlmMockHandle;

beforeAll(async () => {
  const oracle = suiteOracleResponder([SUITE]);
  // One case's prompt gets a reply three times the limit; the others the oracle's answer.
  mock = await startLlmMock({
    responder: (request, ctx) =>
      request.messages.find((m) => m.role === 'user')?.content === HUGE_PROMPT
        ? { text: HUGE_REPLY }
        : oracle(request, ctx),
  });
});
afterAll(async () => {
  await mock?.close();
});

describe('a model server that answers more than maxResponseMb (real CLI, real SDK clients, wire mock)', () => {
  it('a reply over maxResponseMb is one error naming the limit, not retried; the next case is answered', async () => {
    // Every SDK provider, streaming and not, over both transports; retries allowed, so one that happened would show.
    const common = { maxResponseMb: 1, maxRetries: 2, retryBaseMs: 1, timeoutMs: 20_000 };
    const kinds = [
      { id: 'openai:m', options: { baseURL: `${mock.url}/v1` } },
      { id: 'openai-compatible:m', options: { baseURL: `${mock.url}/v1`, api: 'responses' } },
      { id: 'anthropic:m', options: { baseURL: mock.url } },
      { id: 'ollama:m', options: { baseURL: mock.url } },
    ];
    const providers = kinds.flatMap((k, i) =>
      [false, true].map((stream) => ({
        id: k.id,
        label: `${k.id}-${stream ? 'stream' : 'whole'}`,
        options: { ...common, ...k.options, stream, transport: (i + Number(stream)) % 2 ? 'node-http' : 'fetch' },
      })),
    );
    const { file } = writeConfig({ suites: [SUITE], renderers: ['native-functions'], providers });
    const before = mock.requests.length;
    const res = await runCliWithEnv(['eval', '-c', file], {
      OPENAI_API_KEY: 'sk-test-openai-000000',
      ANTHROPIC_API_KEY: 'sk-ant-test-000000',
    });

    // 8 of 24 cases are infrastructure errors: beyond the default gate's 20%, so exit code 3.
    expect(res.code, res.stderr).toBe(3);
    expect(res.stderr).toContain('gate: 8/24 cases hit infrastructure errors');
    const cases = readRecords(join(runDirFrom(res.stderr), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    expect(cases).toHaveLength(24);
    const huge = cases.filter((c) => c.case === 'capital-irrelevant');
    expect(huge.map((c) => c.provider).sort()).toEqual(providers.map((p) => p.label).sort());
    for (const c of huge) {
      expect(c.error?.code, c.provider).toBe('PROVIDER_BAD_RESPONSE');
      expect(c.error?.message).toContain('larger than 1 MiB, the provider option maxResponseMb');
    }
    // The other cases of every provider were answered and graded.
    const others = cases.filter((c) => c.case !== 'capital-irrelevant');
    expect(others).toHaveLength(16);
    for (const c of others) {
      expect(c.error, `${c.provider} ${c.case}`).toBeUndefined();
      expect(c.grades.every((g) => g.pass)).toBe(true);
    }
    // Not retried: each provider asked once for the huge reply.
    const asked = mock.requests
      .slice(before)
      .filter((r) => r.neutral?.messages.find((m) => m.role === 'user')?.content === HUGE_PROMPT);
    expect(asked).toHaveLength(8);
  });
});
