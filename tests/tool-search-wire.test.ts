import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Grade } from '../src/contracts/grade.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { ROOT, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliAnywhere } from './run-cli-anywhere.js';
import { type ServedLlm, serveLlmProcess } from './serve-llm-process.js';

/**
 * Tool search, and the agent-style renderers, through the real SDK clients (openai Chat Completions and Responses, @anthropic-ai/sdk, ollama) against
 * the real `serve llm` wire mock, sim:oracle behind it: natively and in two text protocols, a search is sent, the
 * tools found are offered (natively, or defined in the result), and the expected call follows, in every protocol;
 * Cline-style XML, Hermes-style and Claude Code-style prompts are answered as the persona answers them in process.
 */
let llm: ServedLlm;
const dir = mkdtempSync(join(tmpdir(), 'tg-search-wire-'));
beforeAll(async () => {
  llm = await serveLlmProcess('oracle');
}, 60_000);
afterAll(() => {
  llm?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('tool search over the wire', () => {
  it('every SDK client searches, loads and calls, natively and in the text protocols', async () => {
    const common = { maxRetries: 0, timeoutMs: 20_000 };
    const config = join(dir, 'toolgauge.config.yaml');
    writeFileSync(
      config,
      stringify({
        suites: [join(ROOT, 'suites/excel.yaml'), join(ROOT, 'suites/coder.yaml')],
        renderers: [
          { name: 'tool-search', options: { k: 3 } },
          { name: 'tool-search', options: { protocol: 'xml-tags' } },
          { name: 'tool-search', options: { protocol: 'python-call', method: 'regex' } },
          // the agent styles, whose protocol the persona behind the wire reads from the prompt
          'cline-xml',
          'hermes',
          'claude-code',
        ],
        providers: [
          { id: 'openai-compatible:mock', options: { baseURL: `${llm.url}/v1`, apiKeyEnv: 'MOCK_KEY', ...common } },
          {
            id: 'openai-compatible:mock-responses',
            options: { baseURL: `${llm.url}/v1`, apiKeyEnv: 'MOCK_KEY', api: 'responses', ...common },
          },
          { id: 'anthropic:mock', options: { baseURL: llm.url, ...common } },
          { id: 'ollama:mock', options: { baseURL: llm.url, ...common } },
        ],
        concurrency: 4,
        out: join(dir, 'reports'),
        gate: {
          baseline: 'none',
          maxInfraErrorRate: 0,
          minPassRate: { 'correct-arguments': 1, 'tool-search': 1, parseable: 1 },
        },
      }),
    );
    const res = await runCliAnywhere(
      ['eval', '-c', config, '--filter', 'excel/read-q1-en', '--filter', 'coder/fix-average-and-test', '-q'],
      dir,
      { MOCK_KEY: 'mock-key', ANTHROPIC_API_KEY: 'mock-anthropic-key' },
    );
    expect(res.stderr).toContain('gate: passed');
    expect(res.code).toBe(0);
    const records = readRecords(join(runDirFrom(res.stderr, dir), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    expect(records).toHaveLength(2 * 6 * 4);
    expect(new Set(records.map((r) => r.protocol))).toEqual(
      new Set(['native', 'xml-tags', 'python-call', 'tool-named-xml']),
    );
    for (const r of records.filter((x) => x.renderer.startsWith('tool-search'))) {
      const search = r.grades.find((g) => g.grader === 'tool-search') as Grade;
      expect(search.pass, `${r.key}: ${search.reason}`).toBe(true);
      const turns = r.transcript.turns;
      // the first request holds the search tool only; a later one (native) offers what a search loaded
      const first = turns[0]?.request;
      if (r.protocol === 'native') {
        expect(first?.tools?.map((t) => t.name)).toEqual(['tool_search']);
        expect(turns.some((t) => (t.request.tools?.length ?? 0) > 1)).toBe(true);
      } else {
        expect(first?.tools).toBeUndefined();
        expect(first?.system).toContain('## tool_search');
      }
      expect(turns.flatMap((t) => t.executed).filter((x) => x.loaded && x.loaded.length > 0).length).toBeGreaterThan(0);
    }
  }, 180_000);
});
