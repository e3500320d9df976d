import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmMockHandle, providerResponder, startLlmMock } from '../mock-servers/llm/index.js';
import { simFactory } from '../providers/simulated/index.js';
import { caseOracles } from '../src/cli/case-oracles.js';
import { loadSuite } from '../src/config/load-suite.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { readRecords, runDirFrom } from './cli-helpers.js';
import { mockProviders, runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/*
 * A scripted conversation with every SDK provider (the real openai, @anthropic-ai/sdk and ollama clients against the
 * wire mock), in native tool messages and in a text protocol: the later message is sent with the whole history, the
 * persona behind the wire answers the message being asked (found as serve llm finds it), cassettes of the later
 * message hold the earlier ones, and a resumed run finishes the conversations it had not run.
 */

const SUITE = `name: conv-wire
servers:
  economist: { builtin: economist }
cases:
  - id: tax-then-ubi
    turns:
      - prompt: Set the income tax rate to 0.3.
        expect:
          calls: [{ tool: set_parameter, args: { parameter_name: [income_tax_rate], value: [0.3] } }]
      - prompt: Thanks. What is the universal basic income now?
        expect:
          calls: [{ tool: get_parameter, args: { parameter_name: [universal_basic_income] } }]
          answer_mentions: ['universal_basic_income']
      - prompt: Set it to 500 a month.
        expect:
          calls: [{ tool: set_parameter, args: { parameter_name: [universal_basic_income], value: [500] } }]
    expect:
      state:
        - { path: [parameters], subset: { income_tax_rate: 0.3, universal_basic_income: 500 } }
`;

const KEYS = { MOCK_COMPAT_KEY: 'compat-key', ANTHROPIC_API_KEY: 'anthropic-key', OPENAI_API_KEY: 'openai-key' };
const PROVIDERS = ['openai-compatible:mock-model', 'anthropic:mock', 'ollama:mock', 'openai:mock-responses'];

describe('conversations with every provider, cassettes and --resume (real CLI, real SDK clients)', () => {
  let mock: LlmMockHandle | undefined;
  let work: { dir: string; file: string };
  const suiteDir = tempDir('tg-conv-suite-');
  let records: CaseRecord[] = [];
  let runDir = '';

  beforeAll(async () => {
    const suiteFile = join(suiteDir, 'conv.yaml');
    writeFileSync(suiteFile, SUITE);
    const oracles = caseOracles([loadSuite(suiteFile)]);
    const persona = simFactory.create('oracle', {}, { env: {} });
    mock = await startLlmMock({ responder: providerResponder(persona, (r) => oracles.lookup(r.messages)) });
    work = writeConfig(
      {
        suites: [suiteFile],
        renderers: ['native-functions', 'full-details'],
        providers: [
          ...mockProviders(mock.url),
          { id: 'openai:mock-responses', options: { baseURL: `${mock.url}/v1`, api: 'responses', maxRetries: 0 } },
        ],
        gate: { maxInfraErrorRate: 0 },
      },
      'tg-conv-wire-',
      tempDir('tg-conv-wire-'),
    );
    const res = await runCliWithEnv(['eval', '-c', work.file, '--record', '-q'], KEYS);
    expect(res.stderr).toContain('gate: passed');
    runDir = runDirFrom(res.stderr);
    records = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
  }, 90_000);
  afterAll(async () => {
    await mock?.close();
  });

  it('every provider answers each message in turn, natively and in a text protocol, reaching the goal state', () => {
    expect(records).toHaveLength(PROVIDERS.length * 2);
    for (const r of records) {
      expect(r.error, r.key).toBeUndefined();
      for (const g of r.grades) expect(g.pass, `${r.key} ${g.grader}: ${g.reason}`).toBe(true);
      expect(r.grades.map((g) => g.grader)).toContain('final-state');
      expect(r.transcript.turns.map((t) => t.userTurn)).toEqual([0, 0, 1, 1, 2, 2]);
      // the third message goes out after two answers, the whole conversation before it
      const third = r.transcript.turns[4]?.request.messages ?? [];
      const spoken = third.filter((m) => m.role === 'user' && !m.content.startsWith('<tool_result'));
      expect(
        spoken.map((m) => m.content),
        r.key,
      ).toEqual([
        'Set the income tax rate to 0.3.',
        'Thanks. What is the universal basic income now?',
        'Set it to 500 a month.',
      ]);
    }
    const protocols = new Set(records.map((r) => `${r.provider} ${r.protocol}`));
    for (const p of PROVIDERS) {
      expect(protocols).toContain(`${p} native`);
      expect(protocols).toContain(`${p} xml-tags`);
    }
    // the wire carried the conversation: the last request of each case holds all three messages
    const wire = (mock?.requests ?? []).filter((q) =>
      q.neutral?.messages.some((m) => m.content === 'Set it to 500 a month.'),
    );
    expect(new Set(wire.map((q) => q.api))).toEqual(new Set(['openai', 'openai-responses', 'anthropic', 'ollama']));
  });

  it("a later message's cassette holds the earlier messages; --resume replays the rest with the provider gone", async () => {
    const entries = readFileSync(join(runDir, 'cassettes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { request: { messages: { role: string; content: string }[] } });
    const later = entries.filter((e) => e.request.messages.some((m) => m.content === 'Set it to 500 a month.'));
    expect(later.length).toBe(records.length * 2);
    for (const e of later) {
      expect(e.request.messages[0]?.content).toBe('Set the income tax rate to 0.3.');
      expect(e.request.messages.filter((m) => m.role === 'assistant').length).toBeGreaterThanOrEqual(4);
    }
    // the provider gone: a run that kept only some conversations (--resume) runs the others from the cassettes
    await mock?.close();
    mock = undefined;
    const grades = (rs: CaseRecord[]) => Object.fromEntries(rs.map((r) => [r.key, JSON.stringify(r.grades)]));
    const log = join(runDir, 'run.jsonl');
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const firstCase = lines.findIndex((l) => l.includes('"type":"case"'));
    writeFileSync(log, `${lines.slice(0, firstCase + 3).join('\n')}\n`);
    const resumed = await runCliWithEnv(
      ['eval', '--resume', runDir, '--replay', '--cassettes', join(runDir, 'cassettes.jsonl'), '-q'],
      KEYS,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = readRecords(log).filter((r): r is CaseRecord => r.type === 'case');
    expect(after).toHaveLength(records.length);
    expect(grades(after)).toEqual(grades(records));
  }, 90_000);
});
