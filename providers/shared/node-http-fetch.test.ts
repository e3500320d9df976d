import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { classifySdkError } from './map-error.js';
import { createNodeHttpTransport, type NodeHttpTransport } from './node-http-fetch.js';

/** What the server saw of one request. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => unknown;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function transport(options?: Parameters<typeof createNodeHttpTransport>[0]): NodeHttpTransport {
  const t = createNodeHttpTransport(options);
  cleanups.push(() => t.close());
  return t;
}

/** A real node:http (or https) server on a free port; records requests and counts TCP connections. */
async function serve(handler: Handler, tls?: { key: string; cert: string }) {
  const seen: Seen[] = [];
  const server = tls ? https.createServer(tls) : http.createServer();
  let connections = 0;
  server.on(tls ? 'secureConnection' : 'connection', () => connections++);
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(entry);
      void handler(req, res, entry);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, seen, connections: () => connections, server };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('node:http fetch: requests and responses', () => {
  it('sends method, headers and a string body; exposes status, statusText, headers and the body', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(429, 'Slow Down', {
        'content-type': 'application/json',
        'retry-after': '7',
        'x-multi': ['a', 'b'],
      });
      res.end('{"error":{"message":"rate limited"}}');
    });
    const { fetch } = transport();
    const response = await fetch(`${s.url}/v1/chat?x=1`, {
      method: 'post',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-test' },
      body: '{"model":"m","note":"héllo ✓"}',
    });
    expect(response.status).toBe(429);
    expect(response.ok).toBe(false);
    expect(response.statusText).toBe('Slow Down');
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('x-multi')).toBe('a, b');
    expect(response.url).toBe(`${s.url}/v1/chat?x=1`);
    expect(await response.json()).toEqual({ error: { message: 'rate limited' } });
    const [req] = s.seen;
    expect(req).toMatchObject({ method: 'POST', url: '/v1/chat?x=1', body: '{"model":"m","note":"héllo ✓"}' });
    expect(req?.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer sk-test',
      'content-length': String(Buffer.byteLength('{"model":"m","note":"héllo ✓"}')),
      accept: '*/*',
    });
  });

  it('accepts Headers, header pairs, bytes, URLSearchParams and a ReadableStream body (sent chunked)', async () => {
    const s = await serve((_req, res) => res.end('ok'));
    const { fetch } = transport();
    await fetch(s.url, {
      method: 'PUT',
      headers: new Headers([['X-One', '1']]),
      body: new TextEncoder().encode('bytes'),
    });
    await fetch(s.url, { method: 'POST', headers: [['x-two', '2']], body: new URLSearchParams({ a: '1', b: 'two' }) });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('part1-'));
        controller.enqueue(new TextEncoder().encode('part2'));
        controller.close();
      },
    });
    await fetch(s.url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    const [bytes, form, streamed] = s.seen;
    expect(bytes).toMatchObject({ method: 'PUT', body: 'bytes', headers: { 'x-one': '1', 'content-length': '5' } });
    expect(form).toMatchObject({
      body: 'a=1&b=two',
      headers: { 'x-two': '2', 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    });
    expect(streamed?.body).toBe('part1-part2');
    expect(streamed?.headers['transfer-encoding']).toBe('chunked');
  });

  it('reuses one keep-alive connection for sequential requests', async () => {
    const s = await serve((_req, res) => res.end('x'));
    const { fetch } = transport();
    for (let i = 0; i < 5; i++) expect(await (await fetch(s.url, { method: 'POST', body: '{}' })).text()).toBe('x');
    expect(s.seen).toHaveLength(5);
    expect(s.connections()).toBe(1);
  });

  it('gives 204 and HEAD replies a null body', async () => {
    const s = await serve((req, res) => {
      res.writeHead(req.method === 'HEAD' ? 200 : 204, { 'content-length': req.method === 'HEAD' ? '10' : '0' });
      res.end();
    });
    const { fetch } = transport();
    expect((await fetch(s.url, { method: 'DELETE' })).body).toBeNull();
    const head = await fetch(s.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it('decodes a gzip-encoded reply', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      res.end(gzipSync('{"zipped":true}'));
    });
    const { fetch } = transport();
    expect(await (await fetch(s.url)).json()).toEqual({ zipped: true });
  });

  it('follows redirects like fetch: 307 keeps method and body, 303 becomes GET, other origins get no credentials', async () => {
    const other = await serve((_req, res) => res.end('elsewhere'));
    const s = await serve((req, res) => {
      if (req.url === '/keep') res.writeHead(307, { location: '/final' }).end();
      else if (req.url === '/see-other') res.writeHead(303, { location: '/final' }).end();
      else if (req.url === '/away') res.writeHead(302, { location: `${other.url}/landing` }).end();
      else res.end('final');
    });
    const { fetch } = transport();
    const kept = await fetch(`${s.url}/keep`, { method: 'POST', body: 'payload' });
    expect(await kept.text()).toBe('final');
    expect(kept.redirected).toBe(true);
    expect(kept.url).toBe(`${s.url}/final`);
    expect(s.seen[1]).toMatchObject({ method: 'POST', url: '/final', body: 'payload' });

    await fetch(`${s.url}/see-other`, { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } });
    expect(s.seen[3]).toMatchObject({ method: 'GET', url: '/final', body: '' });
    expect(s.seen[3]?.headers['content-type']).toBeUndefined();

    const away = await fetch(`${s.url}/away`, {
      headers: { authorization: 'Bearer sk-x', 'x-api-key': 'k', 'x-keep': '1' },
    });
    expect(await away.text()).toBe('elsewhere');
    expect(other.seen[0]?.headers).toMatchObject({ 'x-keep': '1' });
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
    expect(other.seen[0]?.headers['x-api-key']).toBeUndefined();

    const manual = await fetch(`${s.url}/keep`, { method: 'POST', body: 'p', redirect: 'manual' });
    expect(manual.status).toBe(307);
    expect(manual.headers.get('location')).toBe('/final');
  });
});

describe('node:http fetch: streaming, aborts and failures', () => {
  it('streams the body incrementally: the first chunk is readable before the server sends the rest', async () => {
    let sendRest: () => void = () => {};
    const restAllowed = new Promise<void>((resolve) => {
      sendRest = resolve;
    });
    const s = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      await restAllowed;
      res.end('data: two\n\n');
    });
    const { fetch } = transport();
    const response = await fetch(s.url, { method: 'POST', body: '{}' });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // If the transport buffered the reply, this read would wait forever: the server holds the rest back.
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('data: one\n\n');
    sendRest();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('an abort before the reply rejects with an AbortError (or the signal reason) and closes the connection', async () => {
    let closed = 0;
    const s = await serve((req) => {
      req.socket.on('close', () => closed++);
    });
    const { fetch } = transport();
    const controller = new AbortController();
    const pending = fetch(s.url, { method: 'POST', body: '{}', signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const error = (await rejection(pending)) as Error;
    expect(error.name).toBe('AbortError');
    expect(classifySdkError(error).kind).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(1);

    const reason = new Error('my reason');
    const already = AbortSignal.abort(reason);
    expect(await rejection(fetch(s.url, { signal: already }))).toBe(reason);
  });

  it('an abort mid-stream errors the body with the AbortError and closes the connection', async () => {
    let socketClosed!: Promise<unknown>;
    const s = await serve((req, res) => {
      socketClosed = once(req.socket, 'close');
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"part":1}\n');
    });
    const { fetch } = transport();
    const controller = new AbortController();
    const response = await fetch(s.url, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"part":1}\n');
    controller.abort();
    const error = (await rejection(reader.read())) as Error;
    expect(error.name).toBe('AbortError');
    await socketClosed;
  });

  it('a body cut by the server errors the stream with TypeError terminated (a network error)', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n', () => res.socket?.destroy());
    });
    const { fetch } = transport();
    const response = await fetch(s.url, { method: 'POST', body: '{}' });
    const error = (await rejection(response.text())) as Error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('terminated');
    expect(classifySdkError(error).kind).toBe('network');
  });

  it('a refused connection rejects with TypeError fetch failed, cause ECONNREFUSED (a network error)', async () => {
    const s = await serve((_req, res) => res.end());
    const url = s.url;
    await cleanups.pop()?.();
    const { fetch } = transport();
    const error = (await rejection(fetch(url, { method: 'POST', body: '{}' }))) as TypeError;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    expect(classifySdkError(error).kind).toBe('network');
  });

  it('resends once on a fresh connection when a reused keep-alive socket is closed under the request', async () => {
    let n = 0;
    const s = await serve((req, res) => {
      // The second request meets what a server that dropped an idle connection looks like: a close, no reply.
      if (++n === 2) req.socket.destroy();
      else res.end(`reply ${n}`);
    });
    const { fetch } = transport();
    expect(await (await fetch(s.url, { method: 'POST', body: '1' })).text()).toBe('reply 1');
    expect(await (await fetch(s.url, { method: 'POST', body: '2' })).text()).toBe('reply 3');
    expect(s.seen.map((r) => r.body)).toEqual(['1', '2', '2']);
    expect(s.connections()).toBe(2);
  });
});

/** A throwaway self-signed certificate for 127.0.0.1, or undefined when no openssl CLI is installed. */
function selfSignedCertificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'tg-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-days',
        '1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tls = selfSignedCertificate();

describe.skipIf(!tls)('node:http fetch over https (self-signed certificate from the openssl CLI)', () => {
  it('talks https with a trusted CA over keep-alive, and refuses the certificate when it is not trusted', async () => {
    const s = await serve((_req, res) => res.end('secure'), tls);
    const trusting = transport({ ca: tls!.cert });
    for (let i = 0; i < 2; i++) {
      expect(await (await trusting.fetch(`${s.url}/v1`, { method: 'POST', body: '{}' })).text()).toBe('secure');
    }
    expect(s.connections()).toBe(1);
    const error = (await rejection(transport().fetch(s.url))) as TypeError;
    expect(error.message).toBe('fetch failed');
    expect(String((error.cause as Error).message)).toMatch(/self[- ]signed|certificate/i);
  });
});
