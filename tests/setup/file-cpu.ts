import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/**
 * With TOOLGAUGE_TEST_CPU_LOG=<file> (Linux), each test file appends one line when it ends: its path, then the CPU
 * seconds its worker spent on it and those of the child processes the worker waited for meanwhile (the CLI runs,
 * servers…), from /proc/self/stat: which files the suite's CPU time goes to (docs/testing.md).
 */
const log = process.platform === 'linux' ? process.env.TOOLGAUGE_TEST_CPU_LOG : undefined;

/** [own, children] CPU seconds of this process so far: utime+stime and cutime+cstime, in ticks of 1/100 s. */
function cpu(): [number, number] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const [u, s, cu, cs] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 15)
    .map((t) => Number(t) / 100);
  return [u! + s!, cu! + cs!];
}

if (log) {
  // A setup file runs again before each test file, in a shared worker too: the figures are this file's share.
  const [self0, children0] = cpu();
  // biome-ignore lint/correctness/noEmptyPattern: vitest hands hooks their context first, and wants it destructured
  afterAll(({}, suite) => {
    const [self, children] = cpu();
    const file = 'filepath' in suite ? suite.filepath : suite.file.filepath;
    appendFileSync(log, `${file}\t${(self - self0).toFixed(2)}\t${(children - children0).toFixed(2)}\n`);
  });
}
