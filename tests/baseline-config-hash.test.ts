import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, runDirFrom } from './cli-helpers.js';

/**
 * The baseline's config hash covers what changes a measurement, and nothing else: a fresh clone of the repository (a
 * copy of the default config and its suites in another folder, with Windows line endings and another gate, timeouts
 * and `out`) runs the configuration the committed baseline was made with, so its comparison raises no "configuration
 * differs" (real CLI; a few cases of the default config, which does not change the hash).
 */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const committed = JSON.parse(readFileSync(join(ROOT, 'reports', 'baseline.json'), 'utf8')) as { configHash: string };

/** The default config and its suites copied into a new folder, `edit` applied to the config's text. */
function checkout(edit: (config: string) => string = (c) => c, crlf = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'tg-config-hash-'));
  made.push(dir);
  cpSync(join(ROOT, 'suites'), join(dir, 'suites'), { recursive: true });
  cpSync(join(ROOT, 'reports', 'baseline.json'), join(dir, 'reports', 'baseline.json'));
  if (crlf) {
    const file = join(dir, 'suites', 'excel.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('\n', '\r\n'));
  }
  writeFileSync(join(dir, 'toolgauge.config.yaml'), edit(readFileSync(join(ROOT, 'toolgauge.config.yaml'), 'utf8')));
  return dir;
}

/** Runs a few cases of the folder's config; returns its snapshot's config hash and its compare.md. */
async function run(dir: string): Promise<{ hash: string; compare: string }> {
  const res = await runCli([
    'eval',
    '-c',
    join(dir, 'toolgauge.config.yaml'),
    '--filter',
    'excel/read-sheet1-zh',
    '-q',
  ]);
  expect(res.stderr).toContain('gate:');
  const runDir = runDirFrom(res.stderr);
  const json = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as { snapshot: { configHash: string } };
  return { hash: json.snapshot.configHash, compare: readFileSync(join(runDir, 'compare.md'), 'utf8') };
}

describe("the baseline's config hash", () => {
  it("is the committed baseline's for the default config anywhere, whatever its gate, timeouts, out or line endings", async () => {
    const moved = checkout(
      (c) =>
        c
          .replace('maxInfraErrorRate: 0 ', 'maxInfraErrorRate: 0.5 ')
          .replace('maxRegression: 0.05', 'maxRegression: 0.2')
          .replace('out: reports', 'out: elsewhere\ntimeouts: { turnMs: 5000, caseMs: 9000, toolMs: 1000 }')
          .replace('concurrency: 8', 'concurrency: 3'),
      true,
    );
    const reseeded = checkout((c) => c.replace('seed: 1', 'seed: 2'));
    const [a, b] = await Promise.all([run(moved), run(reseeded)]);
    expect(a.hash).toBe(committed.configHash);
    expect(a.compare).not.toContain('configuration differs');
    // a change that does change the measurement is told
    expect(b.hash).not.toBe(committed.configHash);
    expect(b.compare).toContain('The configuration differs from the baseline’s');
  }, 60_000);
});
