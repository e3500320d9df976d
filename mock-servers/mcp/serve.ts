import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { BuiltinServer } from '../../src/contracts/mock-server.js';
import { ToolgaugeError } from '../../src/errors.js';
import { bodyTooLargeMessage, continueWithin, readCappedBody, refuseBody } from '../../src/util/capped-body.js';
import { loopbackRefusal, loopbackRefusalMessage } from '../../src/util/loopback-guard.js';

export interface StdioServeHandle {
  /** Closes the server and stops reading stdin, so the process can exit even while stdin stays open. */
  close(): Promise<void>;
}

/**
 * Serves a bundled server over stdio. Resolves once the server is connected; the process then lives as long
 * as stdin is open (or until `close()`). Nothing but MCP messages goes to stdout; the one log line goes to stderr.
 */
export async function serveStdio(
  builtin: BuiltinServer,
  io?: { stdin?: Readable; stdout?: Writable },
): Promise<StdioServeHandle> {
  const server = builtin.create();
  await server.connect(new StdioServerTransport(io?.stdin, io?.stdout));
  process.stderr.write(`toolgauge: '${builtin.name}' MCP server on stdio (${builtin.toolCount} tools)\n`);
  return { close: () => server.close() };
}

export interface HttpServeOptions {
  /** 0 picks a free port; the returned url carries the real one. */
  port: number;
  /** Interface to bind (default 127.0.0.1). Requests are accepted only with loopback Host/Origin headers. */
  host?: string;
  /**
   * A session with no request for this long is closed with its server (default 30 minutes): a client that goes
   * away without DELETE (one session per case adds up over a run) leaves no server state behind for good.
   */
  sessionIdleMs?: number;
  /**
   * Largest request body read, in bytes (default 4 MiB, the MCP SDK's own limit): a larger one is refused with 413 and
   * a JSON-RPC error before it is buffered.
   */
  maxBodyBytes?: number;
}

export interface HttpServeHandle {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  close(): Promise<void>;
}

const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;
const SESSION_IDLE_MS = 30 * 60_000;
function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The JSON-RPC body of a POST, read up to `maxBytes` (a declared Content-Length over it is refused unread). The body is
 * read here rather than by the SDK's transport because an `initialize` must be recognised before a session exists;
 * the transport then gets it parsed.
 */
async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const read = await readCappedBody(req, maxBytes);
  if (read.tooLarge) throw new BodyError(413, -32600, bodyTooLargeMessage(maxBytes, '--max-body-mb'));
  try {
    return JSON.parse(read.bytes.toString('utf8'));
  } catch {
    throw new BodyError(400, -32700, 'Parse error: the request body is not valid JSON');
  }
}

const isInitialize = (body: unknown): boolean =>
  Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);

/**
 * Serves a bundled server over Streamable HTTP with stateful sessions: each `initialize` gets its own
 * `create()`d server (fresh state) and an `mcp-session-id`; DELETE ends the session.
 */
export async function serveHttp(builtin: BuiltinServer, opts: HttpServeOptions): Promise<HttpServeHandle> {
  const host = opts.host ?? '127.0.0.1';
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server; lastSeen: number }>();
  const idleMs = opts.sessionIdleMs ?? SESSION_IDLE_MS;
  const maxBodyBytes = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen < idleMs) continue;
        sessions.delete(id);
        void session.server.close().catch(() => {});
      }
    },
    Math.min(idleMs, 60_000),
  );
  // The sweep alone must not keep the process alive.
  sweep.unref();
  // Set once listening (a request cannot arrive before): the Host header must name this port.
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = loopbackRefusal(req.headers, port);
    if (refusal) {
      sendJsonRpcError(res, 403, -32000, loopbackRefusalMessage(refusal, port));
      return;
    }
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_PATH) {
      sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const body = req.method === 'POST' ? await readJson(req, maxBodyBytes) : undefined;
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session) {
        sendJsonRpcError(res, 404, -32001, 'Session not found: initialize a new session');
        return;
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitialize(body)) {
      sendJsonRpcError(res, 400, -32000, 'Bad Request: no valid mcp-session-id header; send initialize first');
      return;
    }
    const server = builtin.create();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxBodyBytes,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastSeen: Date.now() });
      },
    });
    server.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((e: unknown) => {
      if (e instanceof BodyError && e.status === 413) {
        // The rest of the upload is not read: the connection closes after the answer.
        refuseBody(res, e.status, { jsonrpc: '2.0', error: { code: e.code, message: e.message }, id: null });
      } else if (e instanceof BodyError) sendJsonRpcError(res, e.status, e.code, e.message);
      else {
        process.stderr.write(
          `toolgauge: ${builtin.name} HTTP handler failed: ${e instanceof Error ? e.message : String(e)}\n`,
        );
        sendJsonRpcError(res, 500, -32603, 'Internal server error');
      }
    });
  };
  const http = createServer(listener);
  http.on('checkContinue', continueWithin(maxBodyBytes, listener));

  await new Promise<void>((resolve, reject) => {
    http.once('error', (e) => {
      clearInterval(sweep);
      reject(
        new ToolgaugeError(
          'SERVER_START',
          `cannot serve '${builtin.name}' on ${host}:${opts.port}: ${e.message}`,
          {},
          { cause: e },
        ),
      );
    });
    http.listen(opts.port, host, () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}${MCP_PATH}`,
    async close() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((s) => s.server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
