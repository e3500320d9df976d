import OpenAI from 'openai';
import type { ProviderKind } from '../../src/contracts/model.js';
import type { Provider } from '../../src/contracts/provider.js';
import type { ProviderOptions } from '../shared/options.js';
import { createSdkProvider } from '../shared/sdk-provider.js';
import { createTransport } from '../shared/transport.js';
import { collectChatCompletion } from './collect-openai-stream.js';
import { fromChatCompletion } from './from-openai.js';
import { type OpenAIWireOptions, toOpenAIChatParams } from './to-openai.js';

export interface OpenAIProviderSettings {
  id: string;
  kind: ProviderKind;
  model: string;
  options: ProviderOptions;
  apiKey: string;
  baseURL: string;
  wire: OpenAIWireOptions;
}

/** A provider over the official `openai` SDK, Chat Completions API, streaming or not. */
export function createOpenAIProvider(settings: OpenAIProviderSettings): Provider {
  const { options } = settings;
  const transport = createTransport(options);
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    organization: null,
    project: null,
    maxRetries: 0, // retries are ours (providers/shared/retry.ts)
    timeout: options.timeoutMs + 5_000, // our own per-attempt timer fires first
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    ...(transport.fetch ? { fetch: transport.fetch } : {}),
  });
  return createSdkProvider({
    id: settings.id,
    kind: settings.kind,
    options,
    close: transport.close,
    prepare(request) {
      const body = toOpenAIChatParams(settings.model, request, options, settings.wire);
      if (!options.stream) {
        return {
          body,
          send: async (signal) =>
            fromChatCompletion(settings.id, await client.chat.completions.create(body, { signal })),
        };
      }
      const streamBody = { ...body, stream: true as const, stream_options: { include_usage: true } };
      return {
        body: streamBody,
        async send(signal) {
          const chunks = await client.chat.completions.create(streamBody, { signal });
          return fromChatCompletion(settings.id, await collectChatCompletion(settings.id, chunks));
        },
      };
    },
  });
}
