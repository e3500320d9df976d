import type { ChildProcess } from 'node:child_process';
import { finished, startCli } from '../cli-helpers.js';

/** A running `toolgauge serve mcp <name> --http 0` (the real CLI) and the URL its banner names. */
export interface ServedMcp {
  child: ChildProcess;
  url: string;
  /** SIGTERM, resolved once the process has exited. */
  stop(): Promise<void>;
}

/** The banner's URL line. */
const URL_LINE = / on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/;

/**
 * Starts `toolgauge serve mcp <name> --http 0` and resolves once its stderr matches `ready` (by default the line naming
 * its URL; a pattern given must capture the URL too); rejects if the process exits first.
 */
export async function serveMcpHttp(name: string, ready: RegExp = URL_LINE): Promise<ServedMcp> {
  const child = startCli(['serve', 'mcp', name, '--http', '0']);
  const exited = finished(child);
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = ready.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve mcp ${name} exited (${code}): ${stderr}`)));
  });
  return {
    child,
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
