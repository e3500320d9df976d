import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('a usage that is not counts (1e999, a string, -5) is taken as not reported, and the run log reads back', async () => {
    // a server that answers every request with text and usage figures no API sends: Infinity (JSON writes it null),
    // a string, a negative count, in turn
    const figures = ['1e999', '"12"', '-5'];
    let n = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const input = figures[n++ % figures.length];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          `{"id":"c${n}","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Paris."}}],"usage":{"prompt_tokens":${input},"completion_tokens":3,"total_tokens":3}}`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const config = join(work, 'counts.yaml');
    writeFileSync(
      config,
      [
        `suites: [${JSON.stringify(join(FIXTURES, 'mini.yaml'))}]`,
        'renderers: [native-functions]',
        `providers: [{ id: 'openai-compatible:m', options: { baseURL: '${url}', maxRetries: 0 } }]`,
        'concurrency: 1',
        `out: ${JSON.stringify(join(work, 'counts'))}`,
      ].join('\n'),
    );
    let runDir = '';
    try {
      const res = await runCli(['eval', '-c', config, '-q']);
      runDir = runDirFrom(res.stderr);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(n).toBe(3);
    // was: "run.jsonl:4: not a valid case record (usage.input: … received null); the run log is corrupt"
    const report = await runCli(['report', runDir]);
    expect(report.stderr).not.toContain('corrupt');
    expect(report.code, report.stderr).toBe(0);
    const records = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    expect(records.map((r) => r.usage)).toEqual(Array(3).fill({ input: 0, output: 3, cached: 0 }));
  }, 60_000);
});
