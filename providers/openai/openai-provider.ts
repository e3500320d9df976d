import OpenAI from 'openai';
import type { ProviderKind } from '../../src/contracts/model.js';
import type { Provider } from '../../src/contracts/provider.js';
import type { ProviderOptions } from '../shared/options.js';
import { createSdkProvider } from '../shared/sdk-provider.js';
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
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    organization: null,
    project: null,
    maxRetries: 0, // retries are ours (providers/shared/retry.ts)
    timeout: options.timeoutMs + 5_000, // our own per-attempt timer fires first
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
  });
  return createSdkProvider({
    id: settings.id,
    kind: settings.kind,
    options,
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
          const stream = client.chat.completions.stream(streamBody, { signal });
          return fromChatCompletion(settings.id, await stream.finalChatCompletion());
        },
      };
    },
  });
}
