import { createNodeHttpTransport, type FetchLike } from './node-http-fetch.js';
import type { ProviderOptions } from './options.js';
import { limitResponseBody } from './response-limit.js';

/** The `fetch` a provider hands its SDK client, and its cleanup. */
export interface SdkTransport {
  fetch: FetchLike;
  close(): Promise<void>;
}

/**
 * One transport per provider, so `provider.close()` releases exactly the sockets that provider pooled. `fetch` (the
 * default) is Node's global fetch, the SDKs' own; `node-http` is kept for benchmarks against the local wire mock.
 * Either way no response body is read past `maxResponseMb` (response-limit.ts).
 */
export function createTransport(
  providerId: string,
  options: Pick<ProviderOptions, 'transport' | 'maxResponseMb'>,
): SdkTransport {
  if (options.transport === 'fetch') {
    // Looked up at each call, as the SDKs do: a test or a tool that replaces the global fetch is still honoured.
    const global: FetchLike = (input, init) => globalThis.fetch(input, init);
    return { fetch: limitResponseBody(global, providerId, options.maxResponseMb), close: async () => {} };
  }
  const transport = createNodeHttpTransport();
  return {
    fetch: limitResponseBody(transport.fetch, providerId, options.maxResponseMb),
    close: async () => transport.close(),
  };
}
