import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLlmMock } from '../mock-servers/llm/index.js';
import type { RunJson } from '../src/report/json.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { callMetadataOnce } from './helpers/responders.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const KEYS = { TG_USAGE_OPENAI: 'sk-toolgauge-usage-openai-7171', TG_USAGE_ANTHROPIC: 'sk-toolgauge-usage-ant-7272' };

/**
 * Prompt-cache figures as the APIs report them, through the real SDK clients against the wire mock: Anthropic's
 * cache_creation_input_tokens / cache_read_input_tokens for the cached-schemas strategy (it sends cache_control),
 * OpenAI's cached_tokens (automatic caching of a long prefix seen before), summed into run.json and shown in
 * report.html beside the local estimate.
 */
describe('provider-reported token usage with prompt-cache reads and writes', () => {
  const work = tempDir('tg-usage-');
  afterAll(() => {
    for (const k of Object.keys(KEYS)) delete process.env[k];
  });

  it('reaches run.json and report.html', async () => {
    Object.assign(process.env, KEYS);
    const mock = await startLlmMock({ responder: callMetadataOnce });
    const config = join(work, 'config.yaml');
    writeFileSync(
      config,
      [
        `suites: [${JSON.stringify(join(FIXTURES, 'mini.yaml'))}]`,
        'renderers: [cached-schemas, full-details]',
        'providers:',
        `  - { id: 'anthropic:mock-model', options: { baseURL: '${mock.url}', apiKeyEnv: TG_USAGE_ANTHROPIC, maxRetries: 0 } }`,
        `  - { id: 'openai:mock-model', options: { baseURL: '${mock.url}/v1', apiKeyEnv: TG_USAGE_OPENAI, maxRetries: 0 } }`,
        'concurrency: 1',
        `out: ${JSON.stringify(join(work, 'runs'))}`,
      ].join('\n'),
    );
    let runDir = '';
    try {
      const refreshed = await runCli(['schemas', 'refresh', '-c', config]); // the cached-schemas strategy's cache
      expect(refreshed.code, refreshed.stderr).toBe(0);
      const res = await runCli(['eval', '-c', config, '-q']);
      expect(res.stderr).not.toContain('internal error');
      runDir = runDirFrom(res.stderr);
    } finally {
      await mock.close();
    }
    const records = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    const cell = (r: string, p: string) => {
      const c = (JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as RunJson).cells.find(
        (x) => x.renderer === r && x.provider === p,
      );
      if (!c) throw new Error(`no cell ${r} × ${p}`);
      return c;
    };
    const sum = (r: string, p: string, f: 'cached' | 'cacheWrite') =>
      records.filter((x) => x.renderer === r && x.provider === p).reduce((s, x) => s + (x.usage[f] ?? 0), 0);

    // Anthropic with cache hints: the first request writes the prefix, every later one reads it
    const ant = cell('cached-schemas', 'anthropic:mock-model');
    expect(ant.errors).toBe(0);
    expect(ant.usage.cacheWrite).toBeGreaterThan(0);
    expect(ant.usage.cached).toBeGreaterThan(0);
    expect(ant.usage.cacheWrite).toBe(sum('cached-schemas', 'anthropic:mock-model', 'cacheWrite'));
    expect(ant.usage.cached).toBe(sum('cached-schemas', 'anthropic:mock-model', 'cached'));
    // without cache hints Anthropic caches nothing
    expect(cell('full-details', 'anthropic:mock-model').usage).toMatchObject({ cached: 0, cacheWrite: 0 });
    // OpenAI caches a long prefix on its own and reports the reads only
    const oai = cell('full-details', 'openai:mock-model');
    expect(oai.usage.cached).toBeGreaterThan(0);
    expect(oai.usage.cacheWrite).toBe(0);
    expect(oai.usage.cached).toBe(sum('full-details', 'openai:mock-model', 'cached'));

    // report.html's token table: per case, the provider's figures beside the estimate
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    const row = html.match(/<tr><th>cached-schemas<\/th><td class="l">anthropic:mock-model<\/td>(.*?)<\/tr>/)?.[1];
    const cells = [...(row ?? '').matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1]);
    const per = (x: number) => String(Math.round(x / ant.cases));
    expect(cells.slice(0, 4)).toEqual([
      String(ant.promptTokensMean),
      per(ant.usage.input),
      per(ant.usage.cached),
      per(ant.usage.cacheWrite),
    ]);
  }, 120_000);
});
