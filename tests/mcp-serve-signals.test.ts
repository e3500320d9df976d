import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from './cli-helpers.js';

/**
 * `toolgauge serve mcp <name>` over stdio ends cleanly however it is told to: stdin closed by its client, or a
 * signal while stdin stays open (Ctrl-C in a terminal; a client that signals before closing the pipe).
 */
function serveThen(
  stop: 'SIGINT' | 'SIGTERM' | 'stdin-eof',
  http = false,
): Promise<{ code: number | null; signal: string | null }> {
  const args = [BIN, 'serve', 'mcp', 'coder', ...(http ? ['--http', '0'] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  // The line a client waits for before talking (or signalling): the stdio banner, or the HTTP URL.
  const ready = http ? / on http:\/\/127\.0\.0\.1:\d+\/mcp\n/ : /MCP server on stdio/;
  return new Promise((resolve) => {
    let stderr = '';
    let killer: NodeJS.Timeout | undefined;
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!ready.test(stderr) || killer) return;
      if (stop === 'stdin-eof') child.stdin!.end();
      else child.kill(stop);
      // Safety net only (a hung server would otherwise hang the test); the assertion is on how it exited.
      killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal });
    });
  });
}

describe('toolgauge serve mcp (stdio) shutdown', () => {
  // Each signal is sent the moment the ready line appears: the server must already be listening for it.
  it('exits 0 on SIGINT, on SIGTERM (stdin still open), when stdin closes, and on SIGTERM in HTTP mode', async () => {
    const [sigint, sigterm, eof, http] = await Promise.all([
      serveThen('SIGINT'),
      serveThen('SIGTERM'),
      serveThen('stdin-eof'),
      serveThen('SIGTERM', true),
    ]);
    expect(sigint).toEqual({ code: 0, signal: null });
    expect(sigterm).toEqual({ code: 0, signal: null });
    expect(eof).toEqual({ code: 0, signal: null });
    expect(http).toEqual({ code: 0, signal: null });
  });
});
