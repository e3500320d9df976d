import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/**
 * With TOOLGAUGE_TEST_CPU_LOG=<file> (Linux), each test file appends one line when it ends: its path and the CPU
 * seconds of its worker and of the child processes the worker has waited for (the CLI runs, servers…), from
 * /proc/self/stat. Each file runs in a fresh worker, so the figures are the file's own: which files the suite's
 * CPU time goes to (docs/testing.md).
 */
// biome-ignore lint/correctness/noEmptyPattern: vitest hands hooks their context first, and wants it destructured
afterAll(({}, suite) => {
  const log = process.env.TOOLGAUGE_TEST_CPU_LOG;
  if (!log || process.platform !== 'linux') return;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // fields after the command name: utime, stime, cutime, cstime (14th to 17th of the line), in ticks of 1/100 s
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [self, selfSys, children, childrenSys] = fields.slice(11, 15).map((t) => Number(t) / 100);
  const file = 'filepath' in suite ? suite.filepath : suite.file.filepath;
  appendFileSync(log, `${file}\t${(self! + selfSys!).toFixed(2)}\t${(children! + childrenSys!).toFixed(2)}\n`);
});
