import { createNodeHttpTransport, type FetchLike } from './node-http-fetch.js';
import type { ProviderOptions } from './options.js';

/** The `fetch` a provider hands its SDK client (undefined: the SDK's default, the global fetch) and its cleanup. */
export interface SdkTransport {
  fetch: FetchLike | undefined;
  close(): Promise<void>;
}

/**
 * One transport per provider, so `provider.close()` releases exactly the sockets that provider pooled. `fetch` (the
 * default) leaves the SDK its own global fetch; `node-http` is kept for benchmarks against the local wire mock.
 */
export function createTransport(options: Pick<ProviderOptions, 'transport'>): SdkTransport {
  if (options.transport === 'fetch') return { fetch: undefined, close: async () => {} };
  const transport = createNodeHttpTransport();
  return {
    fetch: transport.fetch,
    close: async () => transport.close(),
  };
}
