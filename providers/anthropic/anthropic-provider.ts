import Anthropic from '@anthropic-ai/sdk';
import type { Provider } from '../../src/contracts/provider.js';
import type { Endpoint } from '../shared/base-url.js';
import type { ProviderOptions } from '../shared/options.js';
import { createSdkProvider } from '../shared/sdk-provider.js';
import { createTransport } from '../shared/transport.js';
import { collectAnthropicMessage } from './collect-anthropic-stream.js';
import { fromAnthropicMessage } from './from-anthropic.js';
import { toAnthropicParams } from './to-anthropic.js';

export interface AnthropicProviderSettings {
  id: string;
  model: string;
  options: ProviderOptions;
  apiKey: string;
  /** Base URL, query and headers, credentials of the URL taken out (providers/shared/base-url.ts). */
  endpoint: Endpoint;
}

/** A provider over the official `@anthropic-ai/sdk`, Messages API, streaming or not. */
export function createAnthropicProvider(settings: AnthropicProviderSettings): Provider {
  const { options } = settings;
  const transport = createTransport(settings.id, options);
  const client = new Anthropic({
    apiKey: settings.apiKey,
    authToken: null,
    baseURL: settings.endpoint.baseURL,
    ...(settings.endpoint.query.length ? { defaultQuery: Object.fromEntries(settings.endpoint.query) } : {}),
    maxRetries: 0, // retries are ours (providers/shared/retry.ts)
    timeout: options.timeoutMs + 5_000, // our own per-attempt timer fires first
    ...(settings.endpoint.headers ? { defaultHeaders: settings.endpoint.headers } : {}),
    fetch: transport.fetch,
  });
  return createSdkProvider({
    id: settings.id,
    kind: 'anthropic',
    options,
    close: transport.close,
    prepare(request) {
      const body = toAnthropicParams(settings.model, request, options);
      if (!options.stream) {
        return {
          body,
          send: async (signal) => fromAnthropicMessage(settings.id, await client.messages.create(body, { signal })),
        };
      }
      // The raw event stream, folded by us: the SDK's MessageStream helper cost more CPU per turn than the rest
      // of the harness (see collect-anthropic-stream.ts).
      const streamBody = { ...body, stream: true as const };
      return {
        body: streamBody,
        async send(signal) {
          const events = await client.messages.create(streamBody, { signal });
          return fromAnthropicMessage(settings.id, await collectAnthropicMessage(settings.id, events));
        },
      };
    },
  });
}
