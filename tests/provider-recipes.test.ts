import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CaseRecord } from '../src/run-log/schema.js';
import { ROOT, readRecords, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { runCliAnywhere } from './run-cli-anywhere.js';
import { type ServedLlm, serveLlmProcess } from './serve-llm-process.js';

const tempDir = useTempDirs();

/**
 * Every recipe of docs/providers.md (docs/recipes/*.yaml) loads as it is written and runs through the real CLI against
 * the real `serve llm` wire mock: only its baseURL is pointed at the mock (`--provider-option baseURL=…`, in the form
 * the recipe's provider takes; its rpm lifted), and keys are placeholders in the environment. sim:oracle answers behind the wire, so
 * every recipe must pass its gate.
 */
const RECIPES = join(ROOT, 'docs', 'recipes');
const files = readdirSync(RECIPES).filter((f) => f.endsWith('.yaml'));

let llm: ServedLlm;
beforeAll(async () => {
  llm = await serveLlmProcess('oracle');
}, 60_000);
afterAll(() => {
  llm?.stop();
});

interface Recipe {
  providers: ({ id: string; options?: Record<string, unknown> } | string)[];
}

/** The base URL a provider kind takes: openai ones the /v1 prefix, anthropic and ollama the bare origin. */
function baseFor(id: string, origin: string): string {
  return id.startsWith('anthropic:') || id.startsWith('ollama:') ? origin : `${origin}/v1`;
}

describe('provider recipes (docs/recipes) against serve llm', () => {
  it('covers every server docs/providers.md names', () => {
    expect(files.sort()).toEqual(
      [
        'anthropic.yaml',
        'llama-cpp.yaml',
        'lm-studio.yaml',
        'ollama.yaml',
        'openai.yaml',
        'openrouter.yaml',
        'vllm-no-parser.yaml',
        'vllm-tool-parser.yaml',
      ].sort(),
    );
    const doc = readFileSync(join(ROOT, 'docs', 'providers.md'), 'utf8');
    for (const f of files) expect(doc, f).toContain(`recipes/${f}`);
    // trying a recipe against the mock: the doc says how to lift its rpm, as this test does
    const trying = doc.slice(doc.indexOf('## Trying a recipe without a model'));
    expect(trying).toMatch(/--provider-option rpm=60000/);
  });

  it.each(files)(
    '%s loads and passes against serve llm',
    async (file) => {
      const recipe = parse(readFileSync(join(RECIPES, file), 'utf8')) as Recipe;
      const entry = recipe.providers[0]!;
      const id = typeof entry === 'string' ? entry : entry.id;
      // no key in any recipe: each names the variable it reads
      expect(readFileSync(join(RECIPES, file), 'utf8')).not.toMatch(/sk-|api_?key\s*:/i);
      const out = tempDir('tg-recipe-');
      const res = await runCliAnywhere(
        [
          'eval',
          '-c',
          join(RECIPES, file),
          '--provider-option',
          `baseURL=${baseFor(id, llm.url)}`,
          '--provider-option',
          'maxRetries=0',
          // a recipe's rpm fits the real service; against the mock it would only make the test wait
          '--provider-option',
          'rpm=60000',
          '--out',
          out,
          '-q',
        ],
        out,
        { OPENAI_API_KEY: 'sk-recipe-test', ANTHROPIC_API_KEY: 'sk-ant-recipe-test', OPENROUTER_API_KEY: 'sk-or-test' },
      );
      expect(res.stderr).toContain('gate: passed');
      expect(res.stderr).not.toMatch(/infrastructure error/);
      expect(res.code).toBe(0);
      if (file === TEXT_PROTOCOLS_RECIPE) await expectScoresOfLocalRun(file, out, runDirFrom(res.stderr, out));
    },
    120_000,
  );
});

/** The recipe whose renderers ask for every text protocol, each answered behind the wire as a local persona would. */
const TEXT_PROTOCOLS_RECIPE = 'vllm-no-parser.yaml';

/** Each case's grades by protocol, strategy and case (the provider left out: it differs between the two runs). */
function gradesOf(runDir: string): Map<string, string> {
  const cases = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
  return new Map(
    cases.map((c) => [`${c.protocol}|${c.renderer}|${c.case}`, c.grades.map((g) => `${g.grader}:${g.pass}`).join(' ')]),
  );
}

/**
 * The recipe run against `serve llm` (sim:oracle behind the wire) grades every case as the same recipe run with
 * sim:oracle in the process: behind the wire the persona answers in the protocol the rendered prompt asks for.
 */
async function expectScoresOfLocalRun(file: string, out: string, wireRun: string): Promise<void> {
  const local = await runCliAnywhere(
    ['eval', '-c', join(RECIPES, file), '--provider', 'sim:oracle', '--out', out, '-q'],
    out,
  );
  expect(local.code, local.stderr).toBe(0);
  const wire = gradesOf(wireRun);
  const here = gradesOf(runDirFrom(local.stderr, out));
  const protocols = new Set([...wire.keys()].map((k) => k.split('|')[0]));
  expect([...protocols].sort()).toEqual(['json', 'python-call', 'xml-tags']);
  expect(wire.size).toBe(here.size);
  const differ = [...here].filter(([key, grades]) => wire.get(key) !== grades).map(([key]) => key);
  expect(differ, 'cases graded differently behind the wire').toEqual([]);
}
