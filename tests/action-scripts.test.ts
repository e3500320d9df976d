import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type CliResult, finished, ROOT } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { CLI_WORDS } from './run-cli-anywhere.js';

const tempDir = useTempDirs();

/**
 * The GitHub Action (action.yml, composite): its steps are the scripts in scripts/action/, run here as the runner runs
 * them — with the TG_* inputs action.yml passes, and GITHUB_OUTPUT, GITHUB_ENV and GITHUB_STEP_SUMMARY as files —
 * against the real CLI: eval, a failing gate, shards and merge, the step summary and the job's exit code.
 */
const SCRIPTS = join(ROOT, 'scripts', 'action');

interface Job {
  dir: string;
  files: { output: string; env: string; summary: string };
}

function job(config: string): Job {
  const dir = tempDir('tg-action-');
  writeFileSync(join(dir, 'toolgauge.config.yaml'), config);
  const files = { output: join(dir, 'gh-output'), env: join(dir, 'gh-env'), summary: join(dir, 'gh-summary') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  return { dir, files };
}

function step(j: Job, script: string, env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, [join(SCRIPTS, script)], {
    cwd: j.dir,
    env: {
      ...process.env,
      GITHUB_OUTPUT: j.files.output,
      GITHUB_ENV: j.files.env,
      GITHUB_STEP_SUMMARY: j.files.summary,
      TOOLGAUGE_CMD: JSON.stringify(CLI_WORDS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child);
}

/** The key=value (and key<<delimiter) lines of a GITHUB_OUTPUT or GITHUB_ENV file; the last value of a key wins. */
function keyValues(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = lines[i]!.indexOf('=');
    if (eq > 0) out[lines[i]!.slice(0, eq)] = lines[i]!.slice(eq + 1);
  }
  return out;
}

const PASSING = 'suites: [excel]\nrenderers: [full-details]\nproviders: [sim:oracle]\n';
// sim:fence-wrapper wraps its calls in code fences: the strict parseable grader fails them
const FAILING =
  'suites: [excel]\nrenderers: [full-details]\nproviders: [sim:fence-wrapper]\ngate: { thresholds: [{ grader: parseable, min: 1 }] }\n';

describe('action.yml', () => {
  it('is a composite action whose run steps are the scripts in scripts/action', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>;
      runs: { using: string; steps: { run?: string; uses?: string; env?: Record<string, string> }[] };
    };
    expect(action.runs.using).toBe('composite');
    const scripts = action.runs.steps.flatMap((s) =>
      s.run ? [/scripts\/action\/([\w-]+\.mjs)/.exec(s.run)?.[1]] : [],
    );
    expect(scripts).toEqual(['install.mjs', 'run.mjs', 'summary.mjs', 'gate.mjs']);
    for (const s of scripts) expect(existsSync(join(SCRIPTS, s!))).toBe(true);
    // every input a step reads is declared
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    for (const m of text.matchAll(/inputs\.([\w-]+)/g)) expect(Object.keys(action.inputs)).toContain(m[1]);
    expect(action.runs.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@'))).toBe(true);
  });
});

describe('the action steps', () => {
  it('install keeps a given command, else takes the project install, else the toolgauge the action ships in', async () => {
    const j = job(PASSING);
    const given = await step(j, 'install.mjs', {});
    expect(given.code).toBe(0);
    expect(JSON.parse(keyValues(j.files.env).TOOLGAUGE_CMD!)).toEqual(CLI_WORDS);

    mkdirSync(join(j.dir, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(j.dir, 'node_modules', '.bin', 'toolgauge'), '#!/bin/sh\n');
    chmodSync(join(j.dir, 'node_modules', '.bin', 'toolgauge'), 0o755);
    const project = await step(j, 'install.mjs', { TOOLGAUGE_CMD: '' });
    expect(JSON.parse(keyValues(j.files.env).TOOLGAUGE_CMD!)).toEqual([
      join(j.dir, 'node_modules', '.bin', 'toolgauge'),
    ]);
    expect(project.code).toBe(0);

    if (existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      await step(j, 'install.mjs', { TOOLGAUGE_CMD: '', TG_INSTALL: 'action', TG_ACTION_PATH: ROOT });
      expect(JSON.parse(keyValues(j.files.env).TOOLGAUGE_CMD!)).toEqual([
        process.execPath,
        join(ROOT, 'bin', 'toolgauge.js'),
      ]);
    }
    const bad = await step(j, 'install.mjs', { TG_INSTALL: 'global' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("::error::toolgauge action: input install 'global'");
  }, 60_000);

  it('a missing or malformed TOOLGAUGE_CMD is one ::error:: line saying what to set, never a stack trace', async () => {
    const j = job(PASSING);
    const unset = await step(j, 'run.mjs', { TOOLGAUGE_CMD: '' });
    // the run step never fails itself: its outputs carry the usage error to the summary and gate steps
    expect(unset.code).toBe(0);
    expect(unset.stderr.trim().split('\n')).toHaveLength(1);
    expect(unset.stderr).toMatch(
      /^::error::toolgauge action: TOOLGAUGE_CMD is not set: .*set TOOLGAUGE_CMD to the command as a JSON array of words/,
    );
    expect(unset.stderr).not.toMatch(/\n\s+at /);
    expect(keyValues(j.files.output)).toMatchObject({ 'exit-code': '2', verdict: 'usage or config error' });
    const malformed = await step(j, 'install.mjs', { TOOLGAUGE_CMD: 'npx toolgauge' });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(
      /^::error::toolgauge action: TOOLGAUGE_CMD is not a JSON array of words \("npx toolgauge"\)/,
    );
    expect(malformed.stderr).not.toMatch(/\n\s+at /);
  });

  it('eval that passes: outputs, the report folder, one step summary with the verdict, job exit 0', async () => {
    const j = job(PASSING);
    const run = await step(j, 'run.mjs', {});
    expect(run.code).toBe(0);
    const out = keyValues(j.files.output);
    expect(out).toMatchObject({ 'exit-code': '0', verdict: 'passed', 'artifact-name': 'toolgauge-report' });
    expect(out['run-dir']!.startsWith(join(j.dir, 'toolgauge-reports'))).toBe(true);
    for (const f of ['run.jsonl', 'summary.md', 'report.html', 'junit.xml']) {
      expect(existsSync(join(out['run-dir']!, f)), f).toBe(true);
    }
    // the CLI did not append its own summary: the summary step writes one, verdict first
    expect(readFileSync(j.files.summary, 'utf8')).toBe('');
    const summary = await step(j, 'summary.mjs', {
      TG_EXIT_CODE: out['exit-code']!,
      TG_RUN_DIR: out['run-dir']!,
      TG_ARTIFACT_NAME: out['artifact-name']!,
    });
    expect(summary.code).toBe(0);
    const md = readFileSync(j.files.summary, 'utf8');
    expect(md).toMatch(/^## ✅ toolgauge: passed \(exit 0\)/);
    expect(md).toContain(readFileSync(join(out['run-dir']!, 'summary.md'), 'utf8').trim().split('\n')[0]);
    expect(md).toContain('`report.html` in the artifact **toolgauge-report**');
    const gate = await step(j, 'gate.mjs', { TG_EXIT_CODE: '0' });
    expect(gate.code).toBe(0);
  }, 120_000);

  it("a failed gate fails the job with toolgauge's exit code, unless fail-on-gate is false or it is a shard", async () => {
    const j = job(FAILING);
    await step(j, 'run.mjs', {});
    const out = keyValues(j.files.output);
    expect(out).toMatchObject({ 'exit-code': '1', verdict: 'gate failed' });
    await step(j, 'summary.mjs', { TG_EXIT_CODE: '1', TG_RUN_DIR: out['run-dir']! });
    expect(readFileSync(j.files.summary, 'utf8')).toMatch(/^## ❌ toolgauge: gate failed \(exit 1\)/);
    const gate = await step(j, 'gate.mjs', { TG_EXIT_CODE: '1' });
    expect(gate.code).toBe(1);
    expect(gate.stdout).toContain('::error::toolgauge: gate failed (exit 1)');
    expect((await step(j, 'gate.mjs', { TG_EXIT_CODE: '1', TG_FAIL_ON_GATE: 'false' })).code).toBe(0);
    expect((await step(j, 'gate.mjs', { TG_EXIT_CODE: '1', TG_SHARD: '1/2' })).code).toBe(0);
    expect((await step(j, 'gate.mjs', { TG_EXIT_CODE: '3', TG_SHARD: '1/2' })).code).toBe(3);
  }, 120_000);

  it('shards, then merge of their artifacts: one run, the gate applied once', async () => {
    const j = job(PASSING);
    for (const i of [1, 2]) {
      await step(j, 'run.mjs', { TG_SHARD: `${i}/2`, TG_OUT: `shard-out-${i}` });
      const out = keyValues(j.files.output);
      expect(out).toMatchObject({ 'exit-code': '0', 'artifact-name': `toolgauge-shard-${i}` });
      expect(out['run-dir']!.startsWith(join(j.dir, `shard-out-${i}`))).toBe(true);
    }
    // as download-artifact lays them out: shards/<artifact>/<run-id>/
    mkdirSync(join(j.dir, 'shards'));
    for (const i of [1, 2]) {
      renameSync(join(j.dir, `shard-out-${i}`), join(j.dir, 'shards', `toolgauge-shard-${i}`));
    }
    const merged = await step(j, 'run.mjs', { TG_COMMAND: 'merge', TG_SHARDS_PATH: 'shards' });
    expect(merged.code).toBe(0);
    const out = keyValues(j.files.output);
    expect(out).toMatchObject({ 'exit-code': '0', 'run-dir': join(j.dir, 'toolgauge-reports', 'merged') });
    expect(existsSync(join(out['run-dir']!, 'run.jsonl'))).toBe(true);
  }, 180_000);

  it('bad inputs: an error annotation and exit code 2 for the later steps', async () => {
    const j = job(PASSING);
    const bad = await step(j, 'run.mjs', { TG_SHARD: 'two' });
    expect(bad.code).toBe(0);
    expect(bad.stderr).toContain("::error::toolgauge action: input shard 'two' is not i/n");
    expect(keyValues(j.files.output)['exit-code']).toBe('2');
    const none = await step(j, 'run.mjs', { TG_COMMAND: 'merge', TG_SHARDS_PATH: 'nowhere' });
    expect(none.stderr).toMatch(/no run folder .* to merge/);
    const config = await step(j, 'run.mjs', { TG_CONFIG: 'missing.yaml' });
    expect(config.code).toBe(0);
    expect(keyValues(j.files.output)).toMatchObject({
      'exit-code': '2',
      verdict: 'usage or config error',
      'run-dir': '',
    });
    await step(j, 'summary.mjs', { TG_EXIT_CODE: '2' });
    expect(readFileSync(j.files.summary, 'utf8')).toContain('No run summary was written');
  }, 60_000);
});
