import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from './cli-helpers.js';

const MIB = 1024 * 1024;
/** The upload a careless or hostile client sends: far over any limit, never held by the test (one chunk, reused). */
const HUGE = 200 * MIB;

interface Posted {
  /** The HTTP status, or undefined when the server closed the connection before the client read an answer. */
  status?: number;
  body: string;
  /** Bytes the client managed to hand to the connection. */
  sent: number;
}

/**
 * POSTs `total` bytes to `url` without holding them. `declared`: with Content-Length and `Expect: 100-continue` (the
 * body goes only once the server says so, as curl sends large uploads); otherwise chunked, sent until the server
 * answers or hangs up.
 */
function post(url: string, total: number, declared: boolean): Promise<Posted> {
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(declared ? { 'content-length': String(total), expect: '100-continue' } : {}),
    };
    const req = request(url, { method: 'POST', headers });
    const chunk = Buffer.alloc(MIB, 0x20);
    const pump = () => {
      while (sent < total && !answered && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered && !req.destroyed) req.end();
    };
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      const done = () => {
        req.destroy();
        resolve({ status: res.statusCode, body, sent });
      };
      res.on('end', done);
      res.on('error', done);
    });
    // A server that stops reading closes the connection: the client may see that before the answer.
    req.on('error', () => {
      if (!answered) resolve({ body: '', sent });
    });
    if (declared) req.on('continue', pump);
    else pump();
  });
}

/** The child's peak resident memory (VmHWM) in bytes: what the server ever held, whenever it held it. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmHWM for ${pid}`);
  return Number(kb) * 1024;
}

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

/** Starts a `toolgauge serve …` command and waits for the URL its banner prints. */
function serve(args: string[], url: RegExp): Promise<string> {
  child = startCli(['serve', ...args]);
  const started = child;
  let stderr = '';
  return new Promise((resolve, reject) => {
    started.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = url.exec(stderr);
      if (m?.[1] && (!args.includes('llm') || stderr.includes('recognised by their prompt'))) resolve(m[1]);
    });
    started.on('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
}

describe('request bodies over the limit are refused before they are buffered (real CLI, /proc memory)', () => {
  it('serve llm: 413 in each protocol’s error shape, the rest unread, memory flat; the server goes on answering', async () => {
    const origin = await serve(['llm', '--port', '0', '--max-body-mb', '8'], /listening on (\S+)/);
    const pid = child!.pid!;
    const ok = await post(`${origin}/v1/chat/completions`, 0, false);
    expect(ok.status).toBe(400); // an empty body: answered, the server is warm
    const before = peakRss(pid);

    const limit = "over 8388608 bytes (8 MiB), this server's limit; raise it with --max-body-mb";
    const shapes: [string, (body: unknown) => string | undefined][] = [
      ['/v1/chat/completions', (b) => (b as { error?: { type?: string; message?: string } }).error?.message],
      ['/v1/responses', (b) => (b as { error?: { message?: string } }).error?.message],
      ['/v1/messages', (b) => (b as { type?: string; error?: { message?: string } }).error?.message],
      ['/api/chat', (b) => (b as { error?: string }).error],
    ];
    for (const [path, messageOf] of shapes) {
      const refused = await post(`${origin}${path}`, HUGE, true);
      expect(refused.status, path).toBe(413);
      expect(refused.sent, path).toBe(0); // told before sending: not one byte of the body went
      expect(messageOf(JSON.parse(refused.body)), path).toContain(limit);
    }
    const anthropic = JSON.parse((await post(`${origin}/v1/messages`, HUGE, true)).body) as Record<string, unknown>;
    expect(anthropic).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });

    // No length declared: read up to the limit, then answered and hung up on, however much more comes.
    const streamed = await post(`${origin}/v1/chat/completions`, HUGE, false);
    if (streamed.status !== undefined) expect(streamed.status).toBe(413);
    expect(streamed.sent).toBeLessThan(64 * MIB);

    // Before the limit, the server's peak memory grew by the whole body (200 MB at least) for each of these.
    expect(peakRss(pid) - before).toBeLessThan(64 * MIB);
    const after = await post(`${origin}/v1/chat/completions`, 0, false);
    expect(after.status).toBe(400);
  }, 60_000);

  it('serve mcp --http: 413 with a JSON-RPC error naming the limit, the rest unread, memory flat', async () => {
    const url = await serve(['mcp', 'excel', '--http', '0', '--max-body-mb', '1'], / on (http:\S+\/mcp)/);
    const pid = child!.pid!;
    const before = peakRss(pid);
    const refused = await post(url, HUGE, true);
    expect(refused.status).toBe(413);
    expect(refused.sent).toBe(0);
    expect(JSON.parse(refused.body)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringContaining('over 1048576 bytes (1 MiB)') },
    });
    const streamed = await post(url, HUGE, false);
    if (streamed.status !== undefined) expect(streamed.status).toBe(413);
    expect(streamed.sent).toBeLessThan(64 * MIB);
    expect(peakRss(pid) - before).toBeLessThan(64 * MIB);
  }, 60_000);
});
