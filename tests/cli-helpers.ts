import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeRecords } from '../src/run-log/reader.js';
import type { RunRecord } from '../src/run-log/schema.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = join(ROOT, 'tests', 'fixtures');
/**
 * The command line as users run it: bin/toolgauge.js over the esbuild bundle, rebuilt from the current sources by the
 * tests' global setup (tests/setup/cli-bundle.ts) when they changed, so a spawn does not compile the sources again.
 */
export const BIN = join(ROOT, 'bin', 'toolgauge.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the real CLI (the bundle of the current sources) as a child process; `stdin` is written to its standard input. */
export function startCli(args: string[], cwd = ROOT, stdin?: string): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (stdin !== undefined) child.stdin?.end(stdin);
  return child;
}

export function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export function runCli(args: string[], cwd = ROOT, stdin?: string): Promise<CliResult> {
  return finished(startCli(args, cwd, stdin));
}

/** The records of a run log, as the reader gives them (format 2's blob lines resolved), without validation. */
export function readRecords(file: string): RunRecord[] {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return decodeRecords(lines) as unknown as RunRecord[];
}

/** The run folder the CLI announced on stderr ("… → <dir>"). */
export function runDirFrom(stderr: string, cwd = ROOT): string {
  const m = /→ (\S+)\n/.exec(stderr);
  if (!m?.[1]) throw new Error(`no run dir in output:\n${stderr}`);
  return m[1].startsWith('/') ? m[1] : join(cwd, m[1]);
}

/** How many case records a run log holds so far (0 before it exists). */
export function caseCount(file: string): number {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"type":"case"')).length
    : 0;
}

/** Polls `check` until it holds; throws after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs: number, everyMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
