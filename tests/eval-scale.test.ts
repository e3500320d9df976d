import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { REALISTIC, writeSuites, writeWorkloadConfig } from '../bench/fixtures/gen-cases.js';
import { BIN, runDirFrom } from './cli-helpers.js';

const N = 100_000;
const HEAP_MB = 256;
const dir = mkdtempSync(join(tmpdir(), 'tg-eval-scale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI under a heap cap: its exit code and stderr. */
function evalUnderCap(config: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, BIN, 'eval', '-c', config, '-q'], {
      cwd: dir,
      env: { ...process.env, TOOLGAUGE_CACHE_DIR: 'off' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-20_000);
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

/** Counts the run log's records by type, streaming (the log is far larger than the heap cap allows to hold). */
async function countRecords(file: string): Promise<{ types: Record<string, number>; footer: unknown; errors: number }> {
  const types: Record<string, number> = {};
  let footer: unknown;
  let errors = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!line) continue;
    const type = /^\{"type":"(\w+)"/.exec(line)?.[1] ?? 'other';
    types[type] = (types[type] ?? 0) + 1;
    if (type === 'footer') footer = JSON.parse(line);
    else if (type === 'case' && line.includes('"error":{')) errors++;
  }
  return { types, footer, errors };
}

describe('eval at scale', () => {
  it(`runs a ${N.toLocaleString('en')}-case YAML suite (every default grader, results fed back) to the end under a ${HEAP_MB} MB heap cap`, async () => {
    writeSuites(dir, N);
    const config = writeWorkloadConfig(dir, REALISTIC, 'reports');
    const { code, stderr } = await evalUnderCap(config);
    expect(stderr).not.toMatch(/heap out of memory|FATAL/);
    expect(code, stderr.slice(-2_000)).toBe(0);
    expect(stderr).toContain('gate: passed');
    const run = runDirFrom(stderr, dir);
    const { types, footer, errors } = await countRecords(join(run, 'run.jsonl'));
    expect(types).toMatchObject({ header: 1, case: N, footer: 1 });
    expect(errors).toBe(0);
    expect(footer).toMatchObject({ type: 'footer', interrupted: false, completed: N, errors: 0 });
    // The reports are written from bounded data: every case is in the summary's counts.
    const summary = readFileSync(join(run, 'summary.md'), 'utf8');
    expect(summary).toContain(`cases run: ${N}`);
    expect(existsSync(join(run, 'report.html'))).toBe(true);
    expect(existsSync(join(run, 'junit.xml'))).toBe(true);
  }, 600_000);
});
