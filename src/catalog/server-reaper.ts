import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The reaper: one small process per CLI process, started with the first stdio server, that ends every server process
 * group this process leaves behind when it dies in a way no exit hook sees (SIGKILL, the OOM killer, a crash of Node
 * itself). Servers lead their own process groups (so a terminal's Ctrl-C reaches the CLI alone), and a server that
 * ignores the end of its stdin would otherwise run on under PID 1 for ever.
 *
 * It reads "+<pgid>" and "-<pgid>" lines on its stdin, a pipe from this process; when the pipe ends (this process is
 * gone, however it went), it SIGKILLs each group still listed and exits. Written by hand: no package watches a parent's
 * death for a set of process groups, and the whole program is the few lines below.
 */
const REAPER_SOURCE = `
const groups = new Set();
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\\n');
  rest = lines.pop();
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line[0] === '+') groups.add(pgid); else groups.delete(pgid);
  }
});
const reap = () => {
  for (const pgid of groups) { try { process.kill(-pgid, 'SIGKILL'); } catch {} }
  process.exit(0);
};
process.stdin.on('end', reap);
process.stdin.on('error', reap);
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
`;

/** Process groups exist on POSIX only; on Windows the exit hooks alone end the servers. */
const SUPPORTED = process.platform !== 'win32';

/** Started on first use; kept for the life of this process (its pipe is what tells it this process died). */
let reaper: ChildProcess | undefined;

function started(): ChildProcess | undefined {
  if (!SUPPORTED) return undefined;
  if (reaper?.stdin?.writable) return reaper;
  try {
    reaper = spawn(process.execPath, ['-e', REAPER_SOURCE], {
      stdio: ['pipe', 'ignore', 'ignore'],
      // Its own group: a terminal's Ctrl-C, or a kill of this process's group, must not end it before it has reaped.
      detached: true,
      windowsHide: true,
    });
  } catch {
    return undefined; // the exit hooks still end the servers on every exit they see
  }
  reaper.on('error', () => {});
  reaper.stdin?.on('error', () => {});
  // Neither the process nor its pipe keeps this process alive.
  reaper.unref();
  (reaper.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return reaper;
}

/** A server process group to end if this process dies without closing it. */
export function watchGroup(pgid: number): void {
  started()?.stdin?.write(`+${pgid}\n`);
}

/** The group has ended (or was ended by us): forget it, so a recycled id is never signalled. */
export function forgetGroup(pgid: number): void {
  if (reaper?.stdin?.writable) reaper.stdin.write(`-${pgid}\n`);
}
