import type { ProviderFactory } from '../../src/contracts/provider.js';
import { endpointOf } from '../shared/base-url.js';
import { readBaseUrl, readKey } from '../shared/env.js';
import { parseProviderOptions, rejectResponsesApi } from '../shared/options.js';
import { createOllamaProvider } from './ollama-provider.js';

export { createOllamaProvider, type OllamaProviderSettings } from './ollama-provider.js';

export const ollamaFactory: ProviderFactory = {
  prefix: 'ollama',
  description: 'Ollama /api/chat via the official ollama client (host: OLLAMA_HOST or option baseURL; no key needed)',
  create(model, rawOptions, ctx) {
    const id = `ollama:${model}`;
    const options = parseProviderOptions(id, rawOptions);
    rejectResponsesApi(id, options);
    // ollama-js does not read OLLAMA_HOST itself, so we pass the host explicitly.
    const fromEnv = options.baseURL ? undefined : readBaseUrl(ctx.env, 'OLLAMA_HOST');
    const endpoint = endpointOf(options.baseURL ?? fromEnv ?? 'http://127.0.0.1:11434', {
      providerId: id,
      source: fromEnv ? 'OLLAMA_HOST' : 'option baseURL',
      headers: options.headers,
      bearerKeyFrom: options.apiKeyEnv,
    });
    const headers: Record<string, string> = { ...endpoint.headers };
    // A hosted Ollama (or a proxy in front of one) may want a bearer key: only when `apiKeyEnv` is set.
    const key = options.apiKeyEnv ? readKey(ctx.env, options.apiKeyEnv, id, true) : undefined;
    if (key) headers.Authorization = `Bearer ${key}`;
    return createOllamaProvider({
      id,
      model,
      options,
      host: endpoint.baseURL,
      query: endpoint.query,
      ...(Object.keys(headers).length ? { headers } : {}),
    });
  },
};
