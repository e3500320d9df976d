import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Measured {
  code: number | null;
  wallS: number;
  /** Peak resident set size of the child, MiB (GNU time's "maximum resident set size"); null when unavailable. */
  peakRssMiB: number | null;
  stderr: string;
}

const GNU_TIME = '/usr/bin/time';

/** Runs a command to completion, timing it with a monotonic clock and, when GNU time exists, its peak RSS. */
export function measure(
  command: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-time-'));
  const rssFile = join(dir, 'rss');
  const useTime = existsSync(GNU_TIME);
  const [cmd, argv] = useTime ? [GNU_TIME, ['-f', '%M', '-o', rssFile, command, ...args]] : [command, args];
  const t0 = performance.now();
  const child = spawn(cmd, argv, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallS = (performance.now() - t0) / 1000;
      let peakRssMiB: number | null = null;
      if (useTime && existsSync(rssFile)) {
        const kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
        if (Number.isFinite(kb)) peakRssMiB = kb / 1024;
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, wallS, peakRssMiB, stderr });
    });
  });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
