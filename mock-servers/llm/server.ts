import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyTooLargeMessage, continueWithin, MIB, readCappedBody, refuseBody } from '../../src/util/capped-body.js';
import { loopbackRefusal, loopbackRefusalMessage } from '../../src/util/loopback-guard.js';
import { MockPromptCache } from './prompt-cache.js';
import { toNeutral } from './to-neutral.js';
import type { Fault, FaultPlan, LlmApi, LlmMockHandle, LlmMockOptions, MockReply, RecordedRequest } from './types.js';
import { errorBody, estimateUsage, malformedFrame, type WireContext, type WireOutput } from './wire-output.js';
import { anthropicJson, anthropicStream } from './write-anthropic.js';
import { ollamaJson, ollamaStream } from './write-ollama.js';
import { openaiJson, openaiStream } from './write-openai.js';
import { responsesJson, responsesStream } from './write-openai-responses.js';

const ROUTES: Record<string, LlmApi> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'openai',
  '/v1/responses': 'openai-responses',
  '/responses': 'openai-responses',
  '/v1/messages': 'anthropic',
  '/api/chat': 'ollama',
};

/**
 * The default body limit: a real request with a large catalog and a long conversation is a few MB; the hosted APIs
 * refuse far larger ones too (Anthropic's Messages API at 32 MB).
 */
export const DEFAULT_MAX_BODY_BYTES = 32 * MIB;

function render(api: LlmApi, stream: boolean, reply: MockReply, ctx: WireContext): WireOutput {
  switch (api) {
    case 'openai':
      return stream ? openaiStream(reply, ctx) : openaiJson(reply, ctx);
    case 'openai-responses':
      return stream ? responsesStream(reply, ctx) : responsesJson(reply, ctx);
    case 'anthropic':
      return stream ? anthropicStream(reply, ctx) : anthropicJson(reply, ctx);
    case 'ollama':
      return stream ? ollamaStream(reply, ctx) : ollamaJson(reply, ctx);
  }
}

function authorised(req: IncomingMessage, key: string | undefined): boolean {
  if (key === undefined) return true;
  return req.headers.authorization === `Bearer ${key}` || req.headers['x-api-key'] === key;
}

/**
 * A wire-protocol mock of the OpenAI (Chat Completions and Responses), Anthropic and Ollama chat APIs on loopback
 * (node:http, no dependency), so tests drive the real SDK clients. Hand-written on purpose: fault injection needs
 * byte-level control of streams. Answers loopback requests only (Host with its port, and any browser Origin): 403
 * otherwise, the same guard as `serve mcp --http`.
 */
export async function startLlmMock(options: LlmMockOptions): Promise<LlmMockHandle> {
  const requests: RecordedRequest[] = [];
  const promptCache = new MockPromptCache();
  const perPath = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let count = 0;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // Set once listening (no request arrives before): the Host header must name this port.
  let port = 0;

  const faultFor = (plan: FaultPlan | undefined, n: number, path: string): Fault | undefined => {
    const seen = perPath.get(path) ?? 0;
    perPath.set(path, seen + 1);
    const byRequest = plan?.byRequest?.[n];
    if (byRequest) return byRequest;
    const byPath = plan?.byPath?.[path];
    return Array.isArray(byPath) ? byPath[seen] : byPath;
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Before anything is read or recorded: a page elsewhere must not reach the mock through DNS rebinding.
    const refusal = loopbackRefusal(req.headers, port);
    if (refusal) return sendJson(res, 403, { error: { message: loopbackRefusalMessage(refusal, port) } });
    const [path = '/', query = ''] = (req.url ?? '/').split(/\?(.*)/s);
    const api = ROUTES[path];
    // Read no further than the limit: a body of hundreds of MB must not be buffered to be refused.
    const read = await readCappedBody(req, maxBodyBytes);
    const text = read.tooLarge ? '' : read.bytes.toString('utf8');
    const n = ++count;
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // kept as text; answered below with 400
    }
    const record: RecordedRequest = {
      requestNumber: n,
      at: Date.now(),
      method: req.method ?? 'GET',
      path,
      query,
      headers: { ...req.headers },
      body,
    };
    if (read.tooLarge) record.tooLarge = true;
    requests.push(record);
    if (read.tooLarge) {
      const message = bodyTooLargeMessage(maxBodyBytes, '--max-body-mb');
      return refuseBody(res, 413, api ? errorBody(api, 413, message) : { error: { message } });
    }
    if (req.method === 'GET' && path === '/') return sendJson(res, 200, { status: 'ok', apis: Object.keys(ROUTES) });
    if (!api || req.method !== 'POST') return sendJson(res, 404, { error: `no route ${req.method} ${path}` });
    record.api = api;
    if (typeof body !== 'object' || body === null) return sendJson(res, 400, errorBody(api, 400, 'body is not JSON'));
    const neutral = toNeutral(api, body);
    record.neutral = neutral;

    const fault = faultFor(options.faults, n, path);
    if (fault) record.fault = fault;
    if (fault?.delayMs) await wait(fault.delayMs);
    if (res.destroyed) return;
    if (!authorised(req, options.apiKey)) {
      // Like the real APIs, the message quotes the key it got: the client side must redact it.
      const got = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '') ?? '(none)';
      return sendJson(res, 401, errorBody(api, 401, `Incorrect API key provided: ${String(got)}`));
    }
    if (fault?.status) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      // Tell the SDKs not to retry on their own (they are configured with maxRetries 0 anyway).
      headers['x-should-retry'] = 'false';
      return sendJson(
        res,
        fault.status,
        errorBody(api, fault.status, fault.message ?? `injected ${fault.status}`),
        headers,
      );
    }

    let reply: MockReply;
    try {
      reply = await options.responder(neutral, { requestNumber: n });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return sendJson(res, 500, errorBody(api, 500, message));
    }
    const b = body as Record<string, unknown>;
    const includeUsage = (b.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    const usage = reply.usage ?? promptCache.apply(api, body, neutral, estimateUsage(text, reply));
    const out = render(api, neutral.stream, reply, { model: neutral.model, requestNumber: n, usage, includeUsage });
    writeOutput(res, api, out, neutral.stream, fault);
  }

  function writeOutput(res: ServerResponse, api: LlmApi, out: WireOutput, stream: boolean, fault?: Fault): void {
    if (res.destroyed) return;
    if (!stream) {
      const full = fault?.malformed ? '{"id": "broken", "choices": [' : (out.frames[0] ?? '');
      res.writeHead(200, { 'content-type': out.contentType, 'content-length': Buffer.byteLength(full) });
      if (fault?.truncateAfterFrames !== undefined) {
        res.write(full.slice(0, Math.floor(full.length / 2)));
        res.socket?.destroy();
        return;
      }
      if (fault?.stallAfterFrames !== undefined) {
        res.write(full.slice(0, Math.floor(full.length / 2)));
        return;
      }
      res.end(full);
      return;
    }
    const frames = [...out.frames];
    if (fault?.malformed) frames.splice(1, 0, malformedFrame(api));
    res.writeHead(200, { 'content-type': out.contentType, 'cache-control': 'no-cache', connection: 'keep-alive' });
    if (fault?.truncateAfterFrames !== undefined) {
      const cut = frames.slice(0, fault.truncateAfterFrames).join('');
      // Flush what was sent, then drop the connection mid-stream.
      res.write(cut, () => res.socket?.destroy());
      return;
    }
    if (fault?.stallAfterFrames !== undefined) {
      // Never ended: `close()` destroys the socket.
      res.write(frames.slice(0, fault.stallAfterFrames).join(''));
      return;
    }
    res.end(frames.join(''));
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  };
  const server = createServer(listener);
  server.on('checkContinue', continueWithin(maxBodyBytes, listener));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
