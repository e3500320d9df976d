import { type ChatResponse, Ollama } from 'ollama';
import type { Provider } from '../../src/contracts/provider.js';
import { withQuery } from '../shared/base-url.js';
import { providerError } from '../shared/map-error.js';
import type { ProviderOptions } from '../shared/options.js';
import { createSdkProvider } from '../shared/sdk-provider.js';
import { createTransport } from '../shared/transport.js';
import { fromOllamaParts } from './from-ollama.js';
import { toOllamaChatRequest } from './to-ollama.js';

export interface OllamaProviderSettings {
  id: string;
  model: string;
  options: ProviderOptions;
  host: string;
  /** The base URL's query, added to every request (ollama-js drops a host's query). */
  query?: readonly [string, string][];
  headers?: Record<string, string>;
}

/**
 * A provider over the official `ollama` client, `/api/chat`, streaming or not. ollama-js takes no per-request
 * signal and its ResponseError drops the response headers, so each attempt gets a client whose `fetch` adds our
 * abort signal and remembers the response headers (for Retry-After). The client is a thin wrapper: cheap to make.
 */
export function createOllamaProvider(settings: OllamaProviderSettings): Provider {
  const { options } = settings;
  const transport = createTransport(settings.id, options);
  const baseFetch = transport.fetch;
  return createSdkProvider({
    id: settings.id,
    kind: 'ollama',
    options,
    close: transport.close,
    prepare(request) {
      const body = { ...toOllamaChatRequest(settings.model, request, options), stream: options.stream };
      return {
        body,
        async send(signal) {
          let headers: Headers | undefined;
          const client = new Ollama({
            host: settings.host,
            ...(settings.headers ? { headers: settings.headers } : {}),
            fetch: async (input, init) => {
              // Streaming requests carry ollama-js's own abort signal: keep it, and add ours.
              const both = init?.signal ? AbortSignal.any([init.signal, signal]) : signal;
              // ollama-js asks for a URL as text; the base URL's query goes after the request's path.
              const url =
                settings.query?.length && typeof input === 'string' ? withQuery(input, settings.query) : input;
              const response = await baseFetch(url, { ...init, signal: both });
              headers = response.headers;
              return response;
            },
          });
          try {
            const parts: ChatResponse[] = [];
            if (body.stream) {
              for await (const part of await client.chat({ ...body, stream: true })) parts.push(part);
            } else {
              parts.push(await client.chat({ ...body, stream: false }));
            }
            return fromOllamaParts(settings.id, parts, request.meta.turn);
          } catch (error) {
            const e = error as { name?: string; status_code?: unknown; message?: string };
            if (e?.name === 'ResponseError' && typeof e.status_code === 'number') {
              throw providerError(settings.id, {
                kind: 'http',
                status: e.status_code,
                headers,
                message: e.message ?? 'error',
              });
            }
            throw error;
          }
        },
      };
    },
  });
}
