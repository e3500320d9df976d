import OpenAI from 'openai';
import type { ModelRequest, ProviderKind } from '../../src/contracts/model.js';
import type { Provider } from '../../src/contracts/provider.js';
import type { Endpoint } from '../shared/base-url.js';
import type { ProviderOptions } from '../shared/options.js';
import { createSdkProvider, type PreparedCall } from '../shared/sdk-provider.js';
import { createTransport } from '../shared/transport.js';
import { collectOpenAIResponse } from './collect-openai-responses.js';
import { collectChatCompletion } from './collect-openai-stream.js';
import { fromChatCompletion } from './from-openai.js';
import { fromOpenAIResponse } from './from-openai-responses.js';
import { type OpenAIWireOptions, toOpenAIChatParams } from './to-openai.js';
import { toOpenAIResponsesParams } from './to-openai-responses.js';

export interface OpenAIProviderSettings {
  id: string;
  kind: ProviderKind;
  model: string;
  options: ProviderOptions;
  apiKey: string;
  /** Base URL, query and headers, credentials of the URL taken out (providers/shared/base-url.ts). */
  endpoint: Endpoint;
  wire: OpenAIWireOptions;
}

/** The Responses API exchange (`api: 'responses'`): `body` is the exact wire body, `stream: true` included. */
function prepareResponses(client: OpenAI, settings: OpenAIProviderSettings, request: ModelRequest): PreparedCall {
  const body = toOpenAIResponsesParams(settings.model, request, settings.options);
  if (!settings.options.stream) {
    return {
      body,
      send: async (signal) => fromOpenAIResponse(settings.id, await client.responses.create(body, { signal })),
    };
  }
  const streamBody = { ...body, stream: true as const };
  return {
    body: streamBody,
    async send(signal) {
      const events = await client.responses.create(streamBody, { signal });
      return fromOpenAIResponse(settings.id, await collectOpenAIResponse(settings.id, events));
    },
  };
}

/** A provider over the official `openai` SDK: Chat Completions, or the Responses API with `api: 'responses'`. */
export function createOpenAIProvider(settings: OpenAIProviderSettings): Provider {
  const { options } = settings;
  const transport = createTransport(settings.id, options);
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.endpoint.baseURL,
    ...(settings.endpoint.query.length ? { defaultQuery: Object.fromEntries(settings.endpoint.query) } : {}),
    organization: null,
    project: null,
    maxRetries: 0, // retries are ours (providers/shared/retry.ts)
    timeout: options.timeoutMs + 5_000, // our own per-attempt timer fires first
    ...(settings.endpoint.headers ? { defaultHeaders: settings.endpoint.headers } : {}),
    fetch: transport.fetch,
  });
  return createSdkProvider({
    id: settings.id,
    kind: settings.kind,
    options,
    close: transport.close,
    prepare(request) {
      if (options.api === 'responses') return prepareResponses(client, settings, request);
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
