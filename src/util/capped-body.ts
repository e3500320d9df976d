import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** A request body read up to a limit: its bytes, or `tooLarge` (and then nothing of it is kept). */
export type CappedBody = { tooLarge: false; bytes: Buffer } | { tooLarge: true };

/** Bytes in a mebibyte: the unit of the servers' `--max-body-mb` flags. */
export const MIB = 1024 * 1024;

/**
 * Reads a request body of at most `maxBytes`. A declared Content-Length over the limit is refused before a byte is
 * read; otherwise the read stops as soon as more than the limit has arrived: the stream is paused, what was kept is
 * dropped, and memory never holds more than the limit, whatever the client sends. Answer a refusal with
 * {@link refuseBody}, which closes the connection instead of reading the rest.
 *
 * Hand-written: the MCP SDK's `readRequestBody` does the same for a web `Request`, not for node:http's
 * IncomingMessage; this is the node:http counterpart, shared by `serve llm` and `serve mcp --http`.
 */
export function readCappedBody(req: IncomingMessage, maxBytes: number): Promise<CappedBody> {
  if (declaredOver(req, maxBytes)) {
    req.pause();
    return Promise.resolve({ tooLarge: true });
  }
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        stop();
        chunks = [];
        req.pause();
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve({ tooLarge: false, bytes: Buffer.concat(chunks, size) });
    };
    const onError = (e: Error) => {
      stop();
      reject(e);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * Answers a body that {@link readCappedBody} refused: `status` (413) with the JSON `body`, then the connection is
 * closed rather than kept alive, so the rest of the upload is never read. A client still sending may see the
 * connection reset after the answer.
 */
export function refuseBody(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  res.end(text);
}

/** The message of a refused body, naming the limit and the flag that sets it. */
export function bodyTooLargeMessage(maxBytes: number, flag: string): string {
  return `Payload Too Large: the request body is over ${maxBytes} bytes (${maxBytes / MIB} MiB), this server's limit; raise it with ${flag}`;
}

function declaredOver(req: IncomingMessage, maxBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > maxBytes;
}

/**
 * A `checkContinue` listener for a server whose `handler` reads bodies with {@link readCappedBody}. A client that asks
 * before sending its body (`Expect: 100-continue`, as curl does for uploads over 1 MB) is told to go on only when the
 * length it declares is within the limit; otherwise it gets the handler's 413 and never sends the body. (Without a
 * listener, node:http says 100 Continue to every request.)
 */
export function continueWithin(maxBytes: number, handler: RequestListener): RequestListener {
  return (req, res) => {
    if (!declaredOver(req, maxBytes)) res.writeContinue();
    handler(req, res);
  };
}
