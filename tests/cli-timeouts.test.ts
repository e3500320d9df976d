import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';

// Turn and case timeouts through the real runner: a slow simulated model against the bundled excel server. A
// timeout is an infrastructure error with its own code, reached within the bound, never a model failure.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tg-timeouts-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runWith(name: string, timeouts: Record<string, number>, latencyMs: number, provider?: string) {
  const config = join(dir, `${name}.config.yaml`);
  writeFileSync(
    config,
    JSON.stringify({
      suites: [join(FIXTURES, 'mini.yaml')],
      renderers: ['full-details'],
      providers: [provider ?? { id: 'sim:oracle', options: { latencyMs } }],
      concurrency: 4,
      timeouts,
      out: join(dir, name),
      gate: { maxInfraErrorRate: 1, baseline: 'none' },
    }),
  );
  const started = performance.now();
  const r = await runCli(['eval', '-c', config, '-q']);
  const seconds = (performance.now() - started) / 1000;
  const cases = readRecords(join(runDirFrom(r.stderr), 'run.jsonl')).filter((x): x is CaseRecord => x.type === 'case');
  return { r, cases, seconds };
}

describe('timeouts', () => {
  it('a turn that outlasts turnMs ends its case as PROVIDER_TIMEOUT', async () => {
    const { cases, seconds } = await runWith('turn', { turnMs: 300, caseMs: 60_000 }, 30_000);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      expect(c.error?.code).toBe('PROVIDER_TIMEOUT');
      expect(c.error?.message).toContain('within 300 ms');
      expect(c.grades).toEqual([]);
    }
    expect(seconds).toBeLessThan(25); // nowhere near the model's 30 s
  });

  it('a case that outlasts caseMs is CASE_TIMEOUT, even while each turn is within turnMs', async () => {
    // Each turn answers in 250 ms (< turnMs); a case needs two turns (call, then answer), so 400 ms cuts it.
    const { cases } = await runWith('case', { turnMs: 10_000, caseMs: 400 }, 250);
    const called = cases.filter((c) => c.case !== 'capital-irrelevant');
    expect(called.length).toBeGreaterThan(0);
    for (const c of called) {
      expect(c.error).toEqual({ code: 'CASE_TIMEOUT', message: 'case did not finish within 400 ms' });
    }
  });

  it('a provider that takes no signal and never answers is still cut at turnMs', async () => {
    // generate() with one parameter gets no AbortSignal (none is created), yet the turn must not outlive its bound.
    const module = join(dir, 'silent-provider.mjs');
    writeFileSync(
      module,
      "export const provider = { id: 'silent', kind: 'sim', simulated: true, generate(request) { return new Promise(() => {}); } };\n",
    );
    const { cases, seconds } = await runWith('silent', { turnMs: 300, caseMs: 60_000 }, 0, module);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(c.error?.code).toBe('PROVIDER_TIMEOUT');
    expect(seconds).toBeLessThan(25);
  });

  it('without timeouts the same slow model completes every case', async () => {
    const { cases } = await runWith('none', { turnMs: 10_000, caseMs: 20_000 }, 20);
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.error)).toEqual([]);
  });
});
