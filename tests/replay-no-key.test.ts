import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmMock } from '../mock-servers/llm/index.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { callMetadataOnce } from './helpers/responders.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const KEYS = { TG_NOKEY_OPENAI: 'sk-toolgauge-nokey-openai-5151', TG_NOKEY_ANTHROPIC: 'sk-toolgauge-nokey-ant-5252' };

const cases = (dir: string) => readRecords(join(dir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');

/**
 * Record with the keys set against the wire mock (real SDKs), then replay with the keys unset and the mock closed:
 * the replayed run needs neither, while a live run without its key is still refused.
 */
describe('--replay needs no API key (real CLI, real SDKs, wire mock)', () => {
  const work = tempDir('tg-replay-nokey-');
  let config = '';
  let recordedDir = '';

  beforeAll(async () => {
    Object.assign(process.env, KEYS);
    const mock = await startLlmMock({ responder: callMetadataOnce });
    config = join(work, 'config.yaml');
    writeFileSync(
      config,
      [
        `suites: [${JSON.stringify(join(FIXTURES, 'mini.yaml'))}]`,
        'renderers: [full-details]',
        'providers:',
        `  - { id: 'openai:mock-model', options: { baseURL: '${mock.url}/v1', apiKeyEnv: TG_NOKEY_OPENAI, maxRetries: 0 } }`,
        `  - { id: 'anthropic:mock-model', options: { baseURL: '${mock.url}', apiKeyEnv: TG_NOKEY_ANTHROPIC, maxRetries: 0 } }`,
        `out: ${JSON.stringify(join(work, 'runs'))}`,
      ].join('\n'),
    );
    try {
      const res = await runCli(['eval', '-c', config, '--record', '-q']);
      expect(res.stderr).not.toContain('internal error');
      recordedDir = runDirFrom(res.stderr);
      expect(mock.requests.length).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
    for (const k of Object.keys(KEYS)) delete process.env[k];
  }, 60_000);
  afterAll(() => {
    for (const k of Object.keys(KEYS)) delete process.env[k];
  });

  it('eval --replay with the keys unset succeeds, with the recorded grades', async () => {
    const recorded = cases(recordedDir);
    expect(recorded.length).toBeGreaterThan(0);
    for (const r of recorded) expect(r.error).toBeUndefined();
    const res = await runCli([
      'eval',
      '-c',
      config,
      '--replay',
      '--cassettes',
      join(recordedDir, 'cassettes.jsonl'),
      '-q',
    ]);
    expect(res.stderr).not.toContain('no API key');
    expect(res.code).toBe(0);
    const replayed = cases(runDirFrom(res.stderr));
    expect(replayed.filter((r) => r.error)).toEqual([]);
    const grades = (rs: CaseRecord[]) => Object.fromEntries(rs.map((r) => [r.key, r.grades.map((g) => g.pass)]));
    expect(grades(replayed)).toEqual(grades(recorded));
  }, 60_000);

  it('the replay command with the keys unset succeeds too', async () => {
    const res = await runCli(['replay', recordedDir, '-q']);
    expect(res.stderr).not.toContain('no API key');
    expect(res.code).toBe(0);
    expect(cases(runDirFrom(res.stderr)).filter((r) => r.error)).toEqual([]);
  }, 60_000);

  it('a run that may call a provider still refuses a missing key, naming the variable', async () => {
    for (const mode of [[], ['--record'], ['--replay-or-record']]) {
      const res = await runCli(['eval', '-c', config, ...mode, '-q']);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('no API key — set the environment variable TG_NOKEY_OPENAI');
    }
  }, 60_000);
});
