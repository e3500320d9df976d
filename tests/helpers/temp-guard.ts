import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { type LiveProcess, processesWith } from '../fixtures/mcp-support/processes.js';

/** The temporary folder of the machine, before the test run replaced TMPDIR with its own (tests/setup/run-tmpdir.ts). */
export const OUTER_TMPDIR_ENV = 'TOOLGAUGE_TEST_OUTER_TMPDIR';

/**
 * tsx keeps its compile cache in `<tmpdir>/tsx-<uid>`. A test's folder links it to the machine's, so a process that
 * loads TypeScript through tsx (a TypeScript plugin, the promptfoo integration) does not compile it all again in every
 * file's fresh folder. The link is the guard's, not a leftover of a test.
 */
export function linkTsxCache(folder: string): string {
  const name = `tsx-${userInfo().uid}`;
  const outer = process.env[OUTER_TMPDIR_ENV];
  if (outer) {
    const target = join(outer, name);
    mkdirSync(target, { recursive: true });
    symlinkSync(target, join(folder, name), 'dir');
  }
  return name;
}

/** What is in `folder` but the entries named in `own`. */
export function leftIn(folder: string, own: string[]): string[] {
  return existsSync(folder) ? readdirSync(folder).filter((n) => !own.includes(n)) : [];
}

/**
 * The reaper a process that starts stdio MCP servers keeps for its whole life (src/catalog/server-reaper.ts): started
 * by a test that runs the server pool in the test's own process, it ends with that process, after the file.
 */
const REAPER_MARK = "process.stdin.on('end', reap)";

/**
 * Processes a test file started and left running (Linux: read from /proc): every process inherits the file's TMPDIR
 * unless it was given an environment of its own, so a live process whose environment names the file's folder is one
 * of its descendants. Processes told to end just before may take a moment: they get `graceMs` to go.
 */
export async function processesLeftIn(folder: string, graceMs = 5_000): Promise<LiveProcess[]> {
  if (process.platform !== 'linux') return [];
  const left = () => processesWith(`TMPDIR=${folder}\0`).filter((p) => !p.cmdline.includes(REAPER_MARK));
  const until = Date.now() + graceMs;
  let found = left();
  while (found.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    found = left();
  }
  return found;
}
