/** Runs the real CLI as users do, and interrupts it (SIGINT or SIGKILL) at random moments. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLI, ROOT } from '../paths.js';

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** The signal the soak sent, if it sent one before the CLI ended. */
  sent?: 'SIGINT' | 'SIGKILL';
}

/**
 * `node --import tsx src/cli/main.ts <args>` (the current source, like the tests), or with `built` the bundled
 * `node bin/toolgauge.js` (after `npm run build`); `kill` sends its signal that long after the run folder was
 * announced (the run log exists by then).
 */
export function runCli(
  built: boolean,
  args: string[],
  env: Record<string, string>,
  kill?: { afterMs: number; signal: 'SIGINT' | 'SIGKILL' },
  onRunDir?: (dir: string) => void,
): Promise<CliExit> {
  const child = spawn(
    process.execPath,
    [...(built ? [CLI] : ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')]), ...args],
    {
      cwd: ROOT,
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  let sent: CliExit['sent'];
  let timer: NodeJS.Timeout | undefined;
  child.stderr?.on('data', (d: Buffer) => {
    const before = stderr.length;
    stderr += d.toString();
    // Only the tail is kept: a long run prints progress.
    if (stderr.length > 64_000) stderr = stderr.slice(-32_000);
    const m = /→ (\S+)\n/.exec(stderr.slice(Math.max(0, before - 200)));
    if (m?.[1] && !timer) {
      onRunDir?.(m[1].startsWith('/') ? m[1] : join(ROOT, m[1]));
      if (kill) {
        timer = setTimeout(() => {
          if (child.exitCode === null && child.signalCode === null) {
            sent = kill.signal;
            child.kill(kill.signal);
          }
        }, kill.afterMs);
      }
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stderr, ...(sent ? { sent } : {}) });
    });
  });
}
