import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Responder, startLlmMock } from '../mock-servers/llm/index.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const SECRET = 'sk-toolgauge-replay-secret-4242';

/** A two-turn "model": calls get_workbook_metadata (natively or in tags), then answers quoting the tool result. */
const twoTurns: Responder = (request) => {
  const last = request.messages.at(-1);
  const result = last?.role === 'tool' ? last.content : /<tool_result[^>]*>([\s\S]*)/.exec(last?.content ?? '')?.[1];
  if (result !== undefined) return { text: `Here is what I found: ${result.slice(0, 80)}` };
  if (request.messages.some((m) => m.role === 'user' && m.content.includes('France'))) return { text: 'Paris.' };
  const args = { filepath: 'sales.xlsx' };
  if (request.tools.length > 0) return { toolCalls: [{ name: 'get_workbook_metadata', arguments: args }] };
  return { text: `<tool_call>${JSON.stringify({ name: 'get_workbook_metadata', arguments: args })}</tool_call>` };
};
const cases = (dir: string) => readRecords(join(dir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
const gradesByKey = (records: CaseRecord[]) =>
  Object.fromEntries(records.map((r) => [r.key, r.grades.map((g) => [g.grader, g.pass, g.score, g.reason])]));

/**
 * Record against a "live" provider (the real openai SDK talking to the wire mock), then replay with the mock
 * closed: any connection attempt would fail, so identical grades with no errors prove the replay made none.
 */
describe('cassettes: record live, replay offline (real CLI, real SDK, wire mock)', () => {
  const work = tempDir('tg-replay-');
  const config = (port: number, extra = '') => {
    const file = join(work, `config-${port}${extra ? '-x' : ''}.yaml`);
    writeFileSync(
      file,
      [
        `suites: [${JSON.stringify(join(FIXTURES, 'mini.yaml'))}]`,
        'renderers: [full-details, native-functions]',
        'providers:',
        `  - { id: 'openai-compatible:mock-model', options: { baseURL: 'http://127.0.0.1:${port}/v1', apiKeyEnv: TG_REPLAY_KEY, maxRetries: 0${extra} } }`,
        'concurrency: 2',
        `out: ${JSON.stringify(join(work, 'runs'))}`,
      ].join('\n'),
    );
    return file;
  };
  let recordedDir = '';
  let port = 0;

  beforeAll(async () => {
    process.env.TG_REPLAY_KEY = SECRET;
    const mock = await startLlmMock({ responder: twoTurns, apiKey: SECRET });
    port = mock.port;
    try {
      const res = await runCli(['eval', '-c', config(port), '--record', '-q']);
      expect(res.stderr).not.toContain('internal error');
      recordedDir = runDirFrom(res.stderr);
      expect(mock.requests.length).toBeGreaterThan(6);
    } finally {
      await mock.close();
    }
  }, 60_000);
  afterAll(() => {
    delete process.env.TG_REPLAY_KEY;
  });

  it('records one cassette entry per exchange, with no secret anywhere', () => {
    const recorded = cases(recordedDir);
    expect(recorded).toHaveLength(6);
    for (const r of recorded) expect(r.error).toBeUndefined();
    // Multi-turn: the tool result went back to the model, so replay must match requests that hold real tool output.
    expect(recorded.filter((r) => r.transcript.turns.length === 2)).toHaveLength(4);
    const turns = recorded.reduce((n, r) => n + r.transcript.turns.length, 0);
    const cassette = readFileSync(join(recordedDir, 'cassettes.jsonl'), 'utf8');
    const entries = cassette
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries).toHaveLength(turns);
    for (const e of entries) {
      expect(e.key).toMatch(/^[0-9a-f]{64}$/);
      expect(e.request.provider).toBe('openai-compatible:mock-model');
      expect(e.request.options).toEqual({}); // baseURL, apiKeyEnv, maxRetries are transport, not part of the key
      expect(e.request.meta).toBeUndefined(); // a real model's answer does not depend on meta
      expect(e.request.oracle).toBeUndefined();
    }
    expect(cassette).not.toContain(SECRET);
    expect(readFileSync(join(recordedDir, 'run.jsonl'), 'utf8')).not.toContain(SECRET);
  });

  it('eval --replay with the provider gone reproduces identical grades', async () => {
    const res = await runCli([
      'eval',
      '-c',
      config(port),
      '--replay',
      '--cassettes',
      join(recordedDir, 'cassettes.jsonl'),
      '-q',
    ]);
    const replayed = cases(runDirFrom(res.stderr));
    expect(replayed.filter((r) => r.error)).toEqual([]);
    expect(gradesByKey(replayed)).toEqual(gradesByKey(cases(recordedDir)));
    expect(res.code).toBe(0);
  }, 30_000);

  it('`toolgauge replay <run-dir>` re-runs from the run folder with no network, and --failures selects', async () => {
    const all = await runCli(['replay', recordedDir, '-q']);
    const replayed = cases(runDirFrom(all.stderr));
    expect(replayed.filter((r) => r.error)).toEqual([]);
    expect(gradesByKey(replayed)).toEqual(gradesByKey(cases(recordedDir)));

    const failing = cases(recordedDir).filter((r) => r.grades.some((g) => !g.pass));
    const res = await runCli(['replay', recordedDir, '--failures', '-q']);
    if (failing.length === 0) {
      expect(res.stderr).toContain('no failing cases');
      expect(res.code).toBe(0);
    } else {
      expect(
        cases(runDirFrom(res.stderr))
          .map((r) => r.key)
          .sort(),
      ).toEqual(failing.map((r) => r.key).sort());
    }
  }, 40_000);

  it('a replay miss names the case and the part of the request that differs', async () => {
    const res = await runCli([
      'eval',
      '-c',
      config(port, ', temperature: 0.5'),
      '--replay',
      '--cassettes',
      join(recordedDir, 'cassettes.jsonl'),
      '--filter',
      'metadata',
      '-q',
    ]);
    const [first] = cases(runDirFrom(res.stderr));
    expect(first?.error?.code).toBe('REPLAY_MISS');
    expect(first?.error?.message).toContain('replay miss for mini/metadata turn 1');
    expect(first?.error?.message).toContain('options.temperature: recorded (absent), now 0.5');
    expect(res.code).toBe(3);
  }, 30_000);
});
