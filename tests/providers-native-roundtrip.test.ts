import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmMockHandle, startLlmMock } from '../mock-servers/llm/index.js';
import type { CaseRecord, RunHeader } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { mockProviders, runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';
import { suiteOracleResponder } from './fixtures/providers-mock/oracle-responder.js';

const SUITE = join(FIXTURES, 'mini.yaml');
/** `openai:` with `api: 'responses'`: the Responses API row of the table. */
const RESPONSES = 'openai:mock-responses';
let mock: LlmMockHandle;

beforeAll(async () => {
  mock = await startLlmMock({ responder: suiteOracleResponder([SUITE]) });
});
afterAll(async () => {
  await mock?.close();
});

/** `toolgauge eval` (real CLI) with native-functions against every SDK provider pointed at the wire mock. */
async function evalNative(stream: boolean): Promise<{ cases: CaseRecord[]; header: RunHeader; summary: string }> {
  const before = mock.requests.length;
  const { file } = writeConfig({
    suites: [SUITE],
    renderers: ['native-functions'],
    providers: [
      ...mockProviders(mock.url, { stream }),
      // The same loop over the OpenAI Responses API (POST /v1/responses).
      {
        id: RESPONSES,
        options: { baseURL: `${mock.url}/v1`, api: 'responses', maxRetries: 0, timeoutMs: 20_000, stream },
      },
    ],
    gate: { maxInfraErrorRate: 0, minPassRate: { parseable: 1, 'correct-arguments': 1 } },
  });
  const res = await runCliWithEnv(['eval', '-c', file, '-q'], {
    MOCK_COMPAT_KEY: 'compat-key',
    ANTHROPIC_API_KEY: 'anthropic-key',
    OPENAI_API_KEY: 'openai-key',
  });
  expect(res.stderr).toContain('gate: passed');
  expect(res.code).toBe(0);
  const dir = runDirFrom(res.stderr);
  const records = readRecords(join(dir, 'run.jsonl'));
  // Every exchange went over the wire, in the requested mode.
  const wire = mock.requests.slice(before);
  expect(new Set(wire.map((r) => r.api))).toEqual(new Set(['openai', 'openai-responses', 'anthropic', 'ollama']));
  for (const r of wire) expect(r.neutral?.stream, `${r.path} stream flag`).toBe(stream);
  return {
    header: records[0] as RunHeader,
    cases: records.filter((r): r is CaseRecord => r.type === 'case'),
    summary: readFileSync(join(dir, 'summary.md'), 'utf8'),
  };
}

function checkRoundTrip(cases: CaseRecord[]): void {
  expect(cases).toHaveLength(12); // 3 cases × 4 providers
  for (const c of cases) {
    expect(c.error, c.key).toBeUndefined();
    expect(c.simulated).toBe(false);
    expect(c.protocol).toBe('native');
    for (const g of c.grades) expect(g.pass, `${c.key} ${g.grader}: ${g.reason}`).toBe(true);
  }
  for (const provider of ['openai-compatible:mock-model', 'anthropic:mock', 'ollama:mock', RESPONSES]) {
    const read = cases.find((c) => c.key === `mini/read-sheet-zh|native-functions|${provider}|0`);
    expect(read, provider).toBeDefined();
    const [t1, t2] = read!.transcript.turns;
    // Turn 1: the tools went out in the provider's native shape and a native call came back over the wire.
    expect(t1!.request.tools?.length).toBeGreaterThan(0);
    expect(t1!.response.toolCalls.map((c) => c.name)).toEqual([expect.stringMatching(/read_data_from_excel$/)]);
    expect(t1!.executed[0]).toMatchObject({ server: 'excel', tool: 'read_data_from_excel', isError: false });
    // Turn 2: the real MCP result was fed back as a native tool message, and the model answered from it.
    expect(t2!.request.messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(t2!.request.messages.at(-1)!.content).toContain('A2=苹果');
    expect(read!.transcript.stopReason).toBe('answered');
    expect(read!.grades.map((g) => g.grader).sort()).toEqual(
      ['continued-after-results', 'correct-arguments', 'markdown-wrapped', 'parseable'].sort(),
    );
    const raw = JSON.stringify(t2!.response.raw.request);
    expect(raw).toContain('A2=苹果'); // the exact wire body that carried the result back
    const noCall = cases.find((c) => c.key === `mini/capital-irrelevant|native-functions|${provider}|0`)!;
    expect(noCall.grades).toEqual([expect.objectContaining({ grader: 'no-call', pass: true })]);
  }
}

describe('native-functions round-trips through the wire mock (real CLI, real SDK clients)', () => {
  it('non-streaming: openai-compatible, anthropic, ollama and openai (Responses API) run the full tool loop and pass every grade', async () => {
    const { cases, header, summary } = await evalNative(false);
    expect(header.providers.every((p) => !p.simulated)).toBe(true);
    checkRoundTrip(cases);
    expect(summary).not.toContain('(simulated)');
  });

  it('streaming: the same loop over SSE and NDJSON streams', async () => {
    const { cases } = await evalNative(true);
    checkRoundTrip(cases);
  });
});
