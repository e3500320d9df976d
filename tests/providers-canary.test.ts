import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmMockHandle, type Responder, startLlmMock } from '../mock-servers/llm/index.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';
import { suiteOracleResponder } from './fixtures/providers-mock/oracle-responder.js';

const SUITE = join(FIXTURES, 'mini.yaml');
const canary = (name: string) => `sk-canary-${name}-${randomBytes(12).toString('hex')}`;
const KEYS = {
  OPENAI_API_KEY: canary('openai'),
  ANTHROPIC_API_KEY: canary('anthropic'),
  MOCK_COMPAT_KEY: canary('compat'),
};
const ALL = Object.values(KEYS);

let mock: LlmMockHandle;

beforeAll(async () => {
  const oracle = suiteOracleResponder([SUITE]);
  // A careless upstream that echoes every key it was given into the model's reply (for the irrelevance case).
  const leaky: Responder = (req, ctx) =>
    req.messages[0]?.content.includes('capital of France')
      ? { text: `Paris. (keys seen: ${ALL.join(' ')})` }
      : oracle(req, ctx);
  mock = await startLlmMock({
    responder: leaky,
    faults: {
      // The first request on each route is refused the way the real APIs do it: quoting the key back.
      byPath: {
        '/v1/chat/completions': [{ status: 401, message: `Incorrect API key provided: ${ALL.join(', ')}` }],
        '/v1/messages': [{ status: 401, message: `invalid x-api-key ${KEYS.ANTHROPIC_API_KEY}` }],
      },
    },
  });
});
afterAll(async () => {
  await mock?.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('API keys never reach what a run writes (real CLI, real SDK clients, wire mock)', () => {
  it('a canary key in the environment appears in no file of the output folder, nor on stdout/stderr', async () => {
    const common = { baseURL: '', maxRetries: 0, timeoutMs: 20_000, stream: false };
    const { dir, file } = writeConfig({
      suites: [SUITE],
      renderers: ['native-functions', 'full-details'],
      providers: [
        { id: 'openai:mock-model', options: { ...common, baseURL: `${mock.url}/v1` } },
        { id: 'anthropic:mock', options: { ...common, baseURL: mock.url, stream: true } },
        {
          id: 'openai-compatible:mock',
          options: { ...common, baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_COMPAT_KEY' },
        },
      ],
      gate: { maxInfraErrorRate: 1 },
    });
    const res = await runCliWithEnv(['eval', '-c', file], KEYS);
    expect(res.code, res.stderr).toBe(0);
    const runDir = runDirFrom(res.stderr);

    // The keys really were used: each one reached the mock in a credential header.
    const sent = JSON.stringify(mock.requests.map((r) => r.headers));
    for (const key of ALL) expect(sent).toContain(key);
    // …and really came back: in error bodies (2 refused requests) and in a reply text.
    const cases = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(18);
    expect(cases.filter((c) => c.error).length).toBe(2);
    expect(
      cases
        .filter((c) => c.error)
        .map((c) => c.error!.message)
        .join('\n'),
    ).toContain('[REDACTED]');
    const echoed = cases.filter((c) => c.case === 'capital-irrelevant' && !c.error);
    expect(echoed.length).toBeGreaterThan(0);
    for (const c of echoed) expect(c.transcript.finalText).toContain('keys seen: [REDACTED]');

    const files = filesUnder(dir);
    expect(files.map((f) => f.slice(runDir.length + 1))).toEqual(expect.arrayContaining(['run.jsonl', 'summary.md']));
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      expect(text.includes('sk-canary-'), `a canary key leaked into ${f}`).toBe(false);
    }
    expect(res.stdout + res.stderr).not.toContain('sk-canary-');
  });
});
