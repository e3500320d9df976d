import { describe, expect, it } from 'vitest';
import { connectServer } from './mcp-connection.js';

/** A stdio "server" that reads its input and never answers, and exits as soon as its input ends. */
const SILENT = [process.execPath, '-e', "process.stdin.resume(); process.stdin.on('end', () => process.exit(0))"];

describe('connectServer: a server slow to answer initialize', () => {
  it('is announced once, naming the server (control characters escaped) and the timeout, then times out', async () => {
    const lines: string[] = [];
    const name = 'evil\u001b[2J\nname';
    const started = connectServer(name, { command: SILENT }, process.cwd(), {
      timeoutMs: 600,
      setting: 'timeouts.serverStartMs',
      notify: (line) => lines.push(line),
    });
    await expect(started).rejects.toMatchObject({ code: 'SERVER_TIMEOUT' });
    expect(lines).toEqual([
      "toolgauge: MCP server 'evil\\u001b[2J\\u000aname' has not answered initialize after 0.3 s; waiting up to 0.6 s (timeouts.serverStartMs)",
    ]);
  });
});
