import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from './cli-helpers.js';

// Plugins given by path are checked against their contract before anything runs: a bad one is a usage error
// (exit 2) in one line naming the config entry, the plugin file and the member that is missing or mistyped.
const dir = mkdtempSync(join(tmpdir(), 'tg-plugin-shape-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** Writes `source` as a plugin module and a config naming it in `key`; returns the CLI's result. */
async function evalWith(key: 'renderers' | 'providers' | 'graders' | 'reporters', file: string, source: string) {
  const sub = join(dir, String(n++));
  mkdirSync(sub);
  writeFileSync(join(sub, file), source);
  const entries: Record<string, unknown> = {
    suites: [join(FIXTURES, 'mini.yaml')],
    renderers: ['full-details'],
    providers: ['sim:oracle'],
    out: join(sub, 'reports'),
  };
  entries[key] = key === 'providers' ? [{ id: `./${file}` }] : [`./${file}`];
  writeFileSync(join(sub, 'toolgauge.config.yaml'), JSON.stringify(entries));
  return runCli(['eval', '-c', join(sub, 'toolgauge.config.yaml'), '--filter', 'metadata', '-q']);
}

async function expectOneLine(res: Awaited<ReturnType<typeof evalWith>>, ...fragments: RegExp[]) {
  expect(res.code, res.stderr).toBe(2);
  const lines = res.stderr.split('\n').filter((l) => l.trim());
  expect(lines, res.stderr).toHaveLength(1);
  expect(res.stderr).not.toMatch(/\n\s+at /);
  for (const f of fragments) expect(lines[0]).toMatch(f);
}

describe('plugins by path are checked against their contract (real CLI)', () => {
  it('`export const grader = 42` → exit 2 naming the entry, the file and what a grader needs', async () => {
    const res = await evalWith('graders', 'answer-grader.mjs', 'export const grader = 42;\n');
    await expectOneLine(
      res,
      /toolgauge\.config\.yaml:\d+:\d+: graders\[0\]/,
      /answer-grader\.mjs: `grader` is a number, not a grader \(needs name, grade\)/,
    );
  });

  it('a grader without grade() → exit 2 naming the missing member', async () => {
    const res = await evalWith('graders', 'no-grade.mjs', "export const grader = { name: 'g', description: 'd' };\n");
    await expectOneLine(res, /no-grade\.mjs: `grader` has no member `grade` \(a function grade\(input\)\)/);
  });

  it('a renderer whose prepare is not a function → exit 2 naming the member and its type', async () => {
    const res = await evalWith('renderers', 'r.mjs', "export const renderer = { name: 'r', prepare: 'text' };\n");
    await expectOneLine(
      res,
      /renderers\[0\]/,
      /r\.mjs: `renderer\.prepare` must be a function prepare\(input\), got a string/,
    );
  });

  it('a provider factory that makes no `generate` → exit 2 naming the member', async () => {
    const res = await evalWith(
      'providers',
      'p.mjs',
      "export const provider = (options) => ({ id: 'p', kind: 'sim', simulated: true });\n",
    );
    await expectOneLine(res, /providers\[0\]/, /p\.mjs: `provider\(options\)` has no member `generate`/);
  });

  it('a module without the export names what it does export', async () => {
    const res = await evalWith('reporters', 'rep.mjs', 'export const reporters = {};\n');
    await expectOneLine(
      res,
      /reporters\[0\]/,
      /rep\.mjs has no export `reporter` \(nor a default export\); it exports reporters/,
    );
  });

  it('a reporter hook that is not a function → exit 2', async () => {
    const res = await evalWith('reporters', 'rep.mjs', 'export const reporter = { onCase: true };\n');
    await expectOneLine(res, /rep\.mjs: `reporter\.onCase` must be a function onCase\(record\), got a boolean/);
  });

  it('a TypeScript plugin with a syntax error → exit 2 naming the file', async () => {
    const res = await evalWith('graders', 'broken.ts', 'export const grader: = {;\n');
    await expectOneLine(res, /graders\[0\]/, /broken\.ts failed to load/);
  });
});
