import Anthropic from '@anthropic-ai/sdk';
import type { Provider } from '../../src/contracts/provider.js';
import type { ProviderOptions } from '../shared/options.js';
import { createSdkProvider } from '../shared/sdk-provider.js';
import { createTransport } from '../shared/transport.js';
import { fromAnthropicMessage } from './from-anthropic.js';
import { toAnthropicParams } from './to-anthropic.js';

export interface AnthropicProviderSettings {
  id: string;
  model: string;
  options: ProviderOptions;
  apiKey: string;
  baseURL: string;
}

/** A provider over the official `@anthropic-ai/sdk`, Messages API, streaming or not. */
export function createAnthropicProvider(settings: AnthropicProviderSettings): Provider {
  const { options } = settings;
  const transport = createTransport(options);
  const client = new Anthropic({
    apiKey: settings.apiKey,
    authToken: null,
    baseURL: settings.baseURL,
    maxRetries: 0, // retries are ours (providers/shared/retry.ts)
    timeout: options.timeoutMs + 5_000, // our own per-attempt timer fires first
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    ...(transport.fetch ? { fetch: transport.fetch } : {}),
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
      return {
        body: { ...body, stream: true },
        async send(signal) {
          const stream = client.messages.stream(body, { signal });
          return fromAnthropicMessage(settings.id, await stream.finalMessage());
        },
      };
    },
  });
}
