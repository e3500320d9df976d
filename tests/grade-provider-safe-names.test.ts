import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderers } from '../renderers/index.js';
import { nativeToolNames } from '../renderers/parts/tool-names.js';
import { ServerPool } from '../src/catalog/server-pool.js';
import { loadSuite } from '../src/config/load-suite.js';
import type { Grade } from '../src/contracts/grade.js';
import type { ModelRequest, ModelResponse } from '../src/contracts/model.js';
import type { Provider } from '../src/contracts/provider.js';
import type { SuiteCase } from '../src/contracts/suite.js';
import { graders } from '../src/graders/index.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { runCase } from '../src/runner/run-case.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const DIR = join(FIXTURES, 'provider-safe-names');
const SUITE = join(DIR, 'suite.yaml');
const LONG = 'analytics.quarterly_revenue.by_region_and_product_line.with_currency_conversion';
const gradeOf = (r: CaseRecord | undefined, name: string): Grade | undefined =>
  r?.grades.find((g) => g.grader === name);

describe('toolgauge grade: calls under provider-safe tool names (real CLI)', () => {
  it('grades math_factorial as math.factorial in native, <tool_call> and python replies; ambiguous names fail', async () => {
    // the recorded long names are the ones the native renderer sends (64: OpenAI, 128: Anthropic)
    const tool = { name: LONG, server: 'inline', inputSchema: {} };
    expect(nativeToolNames([tool], 'openai')[0]?.name).toBe(
      'analytics_quarterly_revenue_by_region_and_product_line__8e835589',
    );
    expect(nativeToolNames([tool], 'anthropic')[0]?.name).toBe(LONG.replace(/\./g, '_'));

    const out = tempDir('tg-safe-names-');
    const res = await runCli(['grade', '--suite', SUITE, '--outputs', join(DIR, 'outputs.jsonl'), '--out', out]);
    expect(res.code).toBe(0);
    const cases = readRecords(join(runDirFrom(res.stderr), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    const lines = readFileSync(join(DIR, 'outputs.jsonl'), 'utf8').trim().split('\n');
    expect(cases).toHaveLength(lines.length);
    const verdicts = cases.map((c) => [c.key, gradeOf(c, 'correct-arguments')?.pass]);
    expect(verdicts).toEqual([
      ['provider-safe-names/factorial|recorded|fc-native|0', true],
      ['provider-safe-names/factorial|recorded|fc-text|0', true],
      ['provider-safe-names/factorial|recorded|python|0', true],
      ['provider-safe-names/factorial|recorded|fc-text|1', true],
      ['provider-safe-names/factorial|recorded|fc-native|1', false],
      ['provider-safe-names/factorial|recorded|fc-native|2', false],
      ['provider-safe-names/circle-area|recorded|fc-native|0', true],
      ['provider-safe-names/revenue|recorded|fc-native|0', true],
      ['provider-safe-names/revenue|recorded|fc-text|0', true],
      ['provider-safe-names/weather-ambiguous|recorded|fc-native|0', false],
      ['provider-safe-names/weather-ambiguous|recorded|fc-native|1', true],
    ]);
    const renamed = 'called as math_factorial, the provider-safe form of math.factorial';
    for (const i of [0, 1, 2, 3]) {
      expect(gradeOf(cases[i], 'correct-arguments')?.reason).toBe(
        `made the 1 expected call(s): math.factorial(number=5); ${renamed}`,
      );
    }
    // the results the application fed back under the provider-safe name pair with the call
    expect(gradeOf(cases[3], 'continued-after-results')).toMatchObject({ pass: true });
    expect(gradeOf(cases[4], 'correct-arguments')?.reason).toBe(
      `called math.factorial with number=6; expected one of [5]; ${renamed}`,
    );
    expect(gradeOf(cases[5], 'correct-arguments')).toMatchObject({ data: { hallucinated: ['Math_Factorial'] } });
    expect(gradeOf(cases[6], 'correct-arguments')?.reason).toContain(
      'called as geometry_circle_area, the provider-safe form of geometry/circle.area',
    );
    for (const i of [7, 8]) {
      expect(gradeOf(cases[i], 'correct-arguments')).toMatchObject({ data: { renamed: [{ tool: LONG }] } });
    }
    expect(gradeOf(cases[9], 'correct-arguments')).toMatchObject({
      reason:
        'weather.get was never called; called weather_get, the provider-safe form of 2 offered tools (weather.get, weather/get): ambiguous, counted as a hallucinated tool',
      data: { hallucinated: ['weather_get'] },
    });
    expect(gradeOf(cases[10], 'correct-arguments')?.data).not.toHaveProperty('renamed');
    // a native call's name is the API's business: parseable judges the shape only
    expect(gradeOf(cases[0], 'parseable')).toMatchObject({ pass: true });
  }, 60_000);
});

describe('a live run executes the tool a provider-safe name stands for', () => {
  const pool = new ServerPool();
  afterAll(() => pool.closeAll());
  const loaded = loadSuite(SUITE);
  const caseById = (id: string) => [...loaded.cases].find((c) => c.id === id) as SuiteCase;

  /** A model that makes `call` in its first reply and answers `answer` after the result. */
  function scripted(call: string, answer: string): Provider & { requests: ModelRequest[] } {
    const requests: ModelRequest[] = [];
    return {
      id: 'scripted:m',
      kind: 'openai-compatible',
      simulated: false,
      requests,
      async generate(request: ModelRequest): Promise<ModelResponse> {
        requests.push(request);
        const text = request.meta.turn === 0 ? call : answer;
        return { text, toolCalls: [], finishReason: 'stop', latencyMs: 0, raw: { request: null, response: null } };
      },
    };
  }
  const run = (c: SuiteCase, provider: Provider) =>
    runCase(
      {
        key: `provider-safe-names/${c.id}|full-details|scripted|0`,
        suite: loaded,
        case: c,
        strategy: { label: 'full-details', name: 'full-details', options: {}, renderer: renderers['full-details'] },
        provider: { label: 'scripted', id: provider.id, options: {}, provider },
        repeat: 0,
      },
      pool,
      {
        seed: 0,
        maxTurns: 4,
        turnMs: 10_000,
        caseMs: 20_000,
        toolMs: 10_000,
        serverStartMs: 20_000,
        graders: Object.values(graders),
        schemaDir: DIR,
      },
      new AbortController().signal,
    );

  it('<tool_call> math_factorial runs math.factorial, its result goes back, and the grades agree', async () => {
    const provider = scripted(
      '<tool_call>{"name": "math_factorial", "arguments": {"number": 5}}</tool_call>',
      'The factorial of 5 is 120.',
    );
    const record = await run(caseById('factorial'), provider);
    expect(record.error).toBeUndefined();
    expect(record.protocol).toBe('xml-tags');
    const executed = record.transcript.turns[0]?.executed;
    expect(executed).toEqual([
      expect.objectContaining({ name: 'math_factorial', server: 'inline', tool: 'math.factorial', result: '120' }),
    ]);
    expect(executed?.[0]?.isError).toBe(false);
    // the model was shown the result of the tool it meant
    expect(JSON.stringify(provider.requests[1]?.messages)).toContain('120');
    expect(gradeOf(record, 'correct-arguments')).toMatchObject({
      pass: true,
      reason:
        'made the 1 expected call(s): math.factorial(number=5); called as math_factorial, the provider-safe form of math.factorial',
    });
    expect(gradeOf(record, 'continued-after-results')).toMatchObject({ pass: true });
  }, 30_000);

  it('an ambiguous name runs nothing: the model is told which tools it could mean, and the grade fails it', async () => {
    const provider = scripted(
      '<tool_call>{"name": "weather_get", "arguments": {"city": "Paris"}}</tool_call>',
      'I could not get the weather.',
    );
    const record = await run(caseById('weather-ambiguous'), provider);
    const executed = record.transcript.turns[0]?.executed[0];
    expect(executed).toMatchObject({ name: 'weather_get', isError: true });
    expect(executed?.result).toContain('weather.get, weather/get');
    expect(gradeOf(record, 'correct-arguments')).toMatchObject({
      pass: false,
      data: { hallucinated: ['weather_get'], ambiguous: [{ candidates: ['weather.get', 'weather/get'] }] },
    });
  }, 30_000);
});
