import { ToolgaugeError } from '../../src/errors.js';
import type { FetchLike } from './node-http-fetch.js';

const MIB = 1024 * 1024;

/** The error a reply over the limit ends its request with: a bad response (not retried), naming the limit and the option. */
export function responseTooLargeError(providerId: string, maxResponseMb: number): ToolgaugeError {
  return new ToolgaugeError(
    'PROVIDER_BAD_RESPONSE',
    `provider ${providerId}: the reply is larger than ${maxResponseMb} MiB, the provider option maxResponseMb; it was not read further (raise maxResponseMb if the server's replies are really this large)`,
    { provider: providerId, maxResponseMb },
  );
}

/**
 * A `fetch` whose responses yield at most `maxResponseMb` of body: the bytes are counted as they stream through
 * (decoded, as the SDK reads them, so a compressed reply cannot expand past it), and past the limit the body errors
 * with responseTooLargeError and the rest is not read (the connection is cancelled). A Content-Length over the limit
 * errors the body before any of it is read. The SDKs read the body through this stream (JSON, SSE, NDJSON alike), so
 * streaming replies stay incremental. Written here because no SDK offers a response size limit and the fetch
 * contract is the one place all three clients share.
 */
export function limitResponseBody(inner: FetchLike, providerId: string, maxResponseMb: number): FetchLike {
  const maxBytes = Math.floor(maxResponseMb * MIB);
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    const declared = Number(response.headers.get('content-length'));
    let seen = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        if (Number.isFinite(declared) && declared > maxBytes) {
          controller.error(responseTooLargeError(providerId, maxResponseMb));
        }
      },
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(responseTooLargeError(providerId, maxResponseMb));
        else controller.enqueue(chunk);
      },
    });
    const limited = new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // A new Response has no url and is not `redirected`; the SDKs read `url` in their errors and logs.
    Object.defineProperty(limited, 'url', { value: response.url });
    Object.defineProperty(limited, 'redirected', { value: response.redirected });
    return limited;
  };
}
