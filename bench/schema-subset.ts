import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { median } from './measure.js';
import { ROOT } from './paths.js';
import type { BenchResult } from './types.js';

const GRADING = join(ROOT, 'bench/offline-grading.ts');
/** Runs toolgauge with some of its modules replaced by stubs (bench/variants/register.mjs). */
const WITHOUT = join(ROOT, 'bench/variants/register.mjs');

interface Pass {
  cases: number;
  seconds: number;
  cpuMs: number;
}

/** The offline grading bench's timed pass in a fresh process; with `ajvOnly`, schema-subset.ts stubbed out. */
function gradingPass(ajvOnly: boolean): Pass {
  const args = ['--import', 'tsx', ...(ajvOnly ? ['--import', WITHOUT] : []), GRADING, '--timed-only'];
  const r = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TG_BENCH_WITHOUT: ajvOnly ? 'schema-subset' : '' },
  });
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !last.startsWith('{')) {
    throw new Error(`the grading pass failed: ${(r.stderr || '').trim().split('\n').at(-1) ?? `exit ${r.status}`}`);
  }
  return JSON.parse(last) as Pass;
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

/**
 * What the hand-written JSON Schema subset (src/graders/schema-subset.ts) saves: the offline grading bench's timed
 * pass (20,000 recorded BFCL replies against ~1,200 distinct tool schemas) with it and with every schema compiled by
 * ajv instead, in alternating fresh processes; CPU time of the pass, median (min–max).
 */
export async function benchSchemaSubset(rounds = 5): Promise<BenchResult[]> {
  const withSubset: Pass[] = [];
  const ajvOnly: Pass[] = [];
  for (let i = 0; i < rounds; i++) {
    withSubset.push(gradingPass(false));
    ajvOnly.push(gradingPass(true));
  }
  const side = (passes: Pass[]) => {
    const cpu = passes.map((p) => p.cpuMs);
    return { med: median(cpu), text: `${fmt(median(cpu))} ms (${fmt(Math.min(...cpu))}–${fmt(Math.max(...cpu))})` };
  };
  const s = side(withSubset);
  const a = side(ajvOnly);
  return [
    {
      name: 'offline grading CPU time, ajv for every schema ÷ with the schema subset',
      value: Number((a.med / s.med).toFixed(3)),
      unit: '×',
      target: 'report',
      met: null,
      detail: `the timed pass of offline grading (${fmt(withSubset[0]?.cases ?? 0)} BFCL outputs, all graders) with src/graders/schema-subset.ts stubbed out (bench/variants/: ajv compiles every schema) ${a.text}; with it ${s.text}; CPU time, median (min–max) of ${rounds} alternating fresh processes each. The subset stays while this is above 1.2× (docs/performance.md)`,
    },
  ];
}
