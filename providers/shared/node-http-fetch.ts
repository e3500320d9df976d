import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { isSecretHeader } from '../../src/util/redact.js';

/**
 * A `fetch` for the SDK clients built on node:http/node:https with keep-alive agents.
 *
 * Why: Node's built-in fetch (undici behind the WHATWG layer) costs about 0.4–0.8 ms of CPU per request, which was
 * most of a model turn's harness CPU (bench/provider-overhead.ts); a node:http keep-alive request costs a fraction.
 * The SDKs only need the fetch contract: this resolves with a WHATWG `Response` once the headers arrive, its body
 * streams the IncomingMessage chunk by chunk (SSE/NDJSON stay incremental), an AbortSignal destroys the socket and
 * rejects with the signal's reason (a DOMException `AbortError` by default, as fetch does), network failures reject
 * with `TypeError('fetch failed', {cause})` and a body cut mid-way errors with `TypeError('terminated')`, the shapes
 * undici uses and our classifier (map-error.ts) and the SDKs already recognise.
 *
 * Deliberately not handled here (they go to the global fetch unchanged): `Request` objects, bodies that are Blob or
 * FormData (file uploads), non-http(s) URLs and URLs with credentials. No `accept-encoding` is advertised (replies are
 * small and decompressing costs CPU), but an encoded reply is decoded as fetch would.
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface NodeHttpTransport {
  fetch: FetchLike;
  /** Destroys the pooled sockets (requests still in flight are cut). */
  close(): void;
}

/**
 * Idle keep-alive sockets are closed after this long (sooner when the server's `Keep-Alive: timeout=N` hint says
 * so: node:http honours it when an agent timeout is set). Long enough to span a tool call between two model turns.
 */
const IDLE_SOCKET_MS = 30_000;
const MAX_REDIRECTS = 20;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** Errors of a pooled socket the server closed while it sat idle: the request never reached the server. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

type OutgoingBody =
  | { kind: 'none' }
  | { kind: 'bytes'; data: Uint8Array; type?: string }
  | { kind: 'stream'; source: AsyncIterable<unknown> };

interface Exchange {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: OutgoingBody;
  signal: AbortSignal | undefined;
  redirect: NonNullable<RequestInit['redirect']>;
  redirectsLeft: number;
  redirected: boolean;
  /** A request that failed on a reused, server-closed socket is sent once more on a fresh one. */
  mayResend: boolean;
}

export interface NodeHttpTransportOptions {
  /** Extra trusted certificate authorities for https (tests use a self-signed certificate); default: Node's. */
  ca?: string | Buffer;
}

export function createNodeHttpTransport(options: NodeHttpTransportOptions = {}): NodeHttpTransport {
  const agents: Record<string, http.Agent> = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, ...(options.ca ? { ca: options.ca } : {}) }),
  };

  const nodeFetch: FetchLike = (input, init = {}) => {
    if (typeof input !== 'string' && !(input instanceof URL)) return globalThis.fetch(input, init);
    const url = new URL(input);
    const body = outgoingBody(init.body);
    if (!body || !agents[url.protocol] || url.username || url.password) return globalThis.fetch(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init.headers);
    if (headers.accept === undefined) headers.accept = '*/*';
    if (body.kind === 'bytes') {
      if (headers['content-type'] === undefined && body.type) headers['content-type'] = body.type;
      if (headers['content-length'] === undefined) {
        headers['content-length'] = String(body.data.byteLength);
      }
    } else if (body.kind === 'none' && method !== 'GET' && method !== 'HEAD') {
      headers['content-length'] = '0';
    }
    return send(agents, {
      url,
      method,
      headers,
      body,
      signal,
      redirect: init.redirect ?? 'follow',
      redirectsLeft: MAX_REDIRECTS,
      redirected: false,
      mayResend: true,
    });
  };

  return {
    fetch: nodeFetch,
    close() {
      for (const agent of Object.values(agents)) agent.destroy();
    },
  };
}

function send(agents: Record<string, http.Agent>, x: Exchange): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const { url, signal } = x;
    const isHttps = url.protocol === 'https:';
    const req = (isHttps ? https : http).request({
      protocol: url.protocol,
      // URL keeps the brackets of an IPv6 literal; the socket layer wants the bare address.
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: x.method,
      headers: x.headers,
      agent: agents[url.protocol],
    });
    let responded = false;
    /** Set once the body stream exists: an abort or a cut connection then errors the body instead. */
    let failBody: ((error: unknown) => void) | undefined;
    const onAbort = () => {
      const reason = abortReason(signal);
      req.destroy();
      if (failBody) failBody(reason);
      else reject(reason);
    };
    const cleanup = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });

    req.on('error', (error: NodeJS.ErrnoException) => {
      if (responded || signal?.aborted) return; // the body stream (or the abort) reports it
      cleanup();
      if (x.mayResend && req.reusedSocket && STALE_SOCKET_CODES.has(error.code ?? '') && x.body.kind !== 'stream') {
        resolve(send(agents, { ...x, mayResend: false }));
        return;
      }
      reject(new TypeError('fetch failed', { cause: error }));
    });

    req.on('response', (res) => {
      responded = true;
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT_STATUS.has(status) && location !== undefined && x.redirect !== 'manual') {
        res.resume();
        cleanup();
        const next = redirectTo(x, status, location);
        if (next instanceof Error) reject(new TypeError('fetch failed', { cause: next }));
        else resolve(send(agents, next));
        return;
      }
      if (status < 200 || status > 599) {
        res.destroy();
        cleanup();
        reject(new TypeError('fetch failed', { cause: new Error(`unsupported HTTP status ${status}`) }));
        return;
      }
      const headers = new Headers();
      const raw = res.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      let body: ReadableStream<Uint8Array> | null = null;
      if (NULL_BODY_STATUS.has(status) || x.method === 'HEAD') {
        res.resume();
        cleanup();
      } else {
        const stream = webBody(res, cleanup);
        body = stream.body;
        failBody = stream.fail;
      }
      let response: Response;
      try {
        response = new Response(body, { status, statusText: res.statusMessage ?? '', headers });
      } catch {
        // A reason phrase fetch would not accept: the status is what matters.
        response = new Response(body, { status, headers });
      }
      // `url` and `redirected` are read-only getters of a constructed Response; the SDKs log `url`.
      Object.defineProperty(response, 'url', { value: url.href });
      if (x.redirected) Object.defineProperty(response, 'redirected', { value: true });
      resolve(response);
    });

    writeBody(req, x.body);
  });
}

/** The IncomingMessage (decoded when the server encoded it anyway) as a byte stream with backpressure. */
function webBody(
  res: http.IncomingMessage,
  done: () => void,
): { body: ReadableStream<Uint8Array>; fail(error: unknown): void } {
  const source = decoded(res);
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let finished = false;
  const finish = (error?: unknown) => {
    if (finished) return;
    finished = true;
    done();
    if (error === undefined) controller?.close();
    else {
      controller?.error(error);
      res.destroy();
    }
  };
  const cut = (cause: unknown) => finish(new TypeError('terminated', { cause }));
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        source.on('data', (chunk: Buffer) => {
          if (finished) return;
          c.enqueue(chunk);
          if ((c.desiredSize ?? 1) <= 0) source.pause();
        });
        source.on('end', () => finish());
        source.on('error', cut);
        // Node reports a connection closed before the end of the body as an 'aborted' error; 'close' without
        // `complete` is the fallback for versions that only close.
        res.on('close', () => {
          if (!res.complete) cut(new Error('other side closed'));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        finished = true;
        done();
        res.destroy();
      },
    },
    // A few chunks of read-ahead: fewer pause/resume round trips, memory still bounded.
    { highWaterMark: 8 },
  );
  return { body, fail: finish };
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

function writeBody(req: http.ClientRequest, body: OutgoingBody): void {
  if (body.kind === 'none') req.end();
  else if (body.kind === 'bytes') req.end(body.data);
  else void pump(req, body.source);
}

async function pump(req: http.ClientRequest, source: AsyncIterable<unknown>): Promise<void> {
  try {
    for await (const chunk of source) {
      if (req.destroyed) return;
      const data = typeof chunk === 'string' ? chunk : toBytes(chunk);
      if (data === undefined) throw new TypeError('request body chunks must be strings or bytes');
      if (!req.write(data)) await new Promise((resolve) => req.once('drain', resolve).once('close', resolve));
    }
    req.end();
  } catch (error) {
    req.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The request body in a form we can send, or undefined for kinds left to the global fetch (Blob, FormData). */
function outgoingBody(body: RequestInit['body']): OutgoingBody | undefined {
  if (body === undefined || body === null) return { kind: 'none' };
  // Encoded once here: a string would be measured (content-length) and encoded again by the socket write.
  if (typeof body === 'string') return { kind: 'bytes', data: Buffer.from(body), type: 'text/plain;charset=UTF-8' };
  if (body instanceof URLSearchParams) {
    return {
      kind: 'bytes',
      data: Buffer.from(body.toString()),
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
    };
  }
  const bytes = toBytes(body);
  if (bytes) return { kind: 'bytes', data: bytes };
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    // ReadableStream (async-iterable in Node) and async generators both stream chunked.
    return { kind: 'stream', source: body as AsyncIterable<unknown> };
  }
  return undefined;
}

function toBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
}

/** Request headers as a null-prototype record with lower-case names (repeated names joined as Headers does). */
function headerRecord(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!init) return out;
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const prior = out[key];
    out[key] = prior === undefined ? value : `${prior}, ${value}`;
  };
  if (init instanceof Headers) {
    init.forEach((value, name) => {
      out[name] = value;
    });
  } else if (Array.isArray(init)) {
    for (const [name, value] of init as [string, string][]) add(name, String(value));
  } else if (typeof (init as unknown as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of init as unknown as Iterable<[string, string]>) add(name, String(value));
  } else {
    const record = init as Record<string, string | readonly string[] | undefined>;
    for (const name of Object.keys(record)) {
      const value = record[name];
      if (typeof value === 'string') add(name, value);
      else if (value !== undefined) for (const v of value) add(name, v);
    }
  }
  return out;
}

/** The next hop of a redirect as fetch follows it, or the reason it cannot be followed. */
function redirectTo(x: Exchange, status: number, location: string): Exchange | Error {
  if (x.redirect === 'error') return new Error(`redirect (HTTP ${status}) refused: redirect mode is 'error'`);
  if (x.redirectsLeft <= 0) return new Error('redirect count exceeded');
  let url: URL;
  try {
    url = new URL(location, x.url);
  } catch {
    return new Error(`invalid redirect location ${JSON.stringify(location)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return new Error(`redirect to ${url.protocol} refused`);
  const headers: Record<string, string> = Object.assign(Object.create(null), x.headers);
  let { method, body } = x;
  if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
    method = 'GET';
    body = { kind: 'none' };
    for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) {
      delete headers[name];
    }
  } else if (body.kind === 'stream') {
    return new Error(`cannot replay a streamed request body for a ${status} redirect`);
  }
  if (url.origin !== x.url.origin) {
    // Credentials are for the origin they were configured for, never for wherever it redirects.
    for (const name of Object.keys(headers)) if (isSecretHeader(name) || name === 'host') delete headers[name];
  }
  return { ...x, url, method, headers, body, redirectsLeft: x.redirectsLeft - 1, redirected: true };
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
