import type { ProviderFactory } from '../../src/contracts/provider.js';
import { endpointOf } from '../shared/base-url.js';
import { readBaseUrl, readKey } from '../shared/env.js';
import { parseProviderOptions } from '../shared/options.js';
import { createOpenAIProvider } from './openai-provider.js';

export { createOpenAIProvider, type OpenAIProviderSettings } from './openai-provider.js';

export const openaiFactory: ProviderFactory = {
  prefix: 'openai',
  description:
    'OpenAI Chat Completions (or the Responses API with option api: responses) via the official openai SDK (key: OPENAI_API_KEY; OPENAI_BASE_URL optional)',
  create(model, rawOptions, ctx) {
    const id = `openai:${model}`;
    const options = parseProviderOptions(id, rawOptions);
    const keyFrom = options.apiKeyEnv ?? 'OPENAI_API_KEY';
    const apiKey = readKey(ctx.env, keyFrom, id, true) as string;
    const fromEnv = options.baseURL ? undefined : readBaseUrl(ctx.env, 'OPENAI_BASE_URL');
    const endpoint = endpointOf(options.baseURL ?? fromEnv ?? 'https://api.openai.com/v1', {
      providerId: id,
      source: fromEnv ? 'OPENAI_BASE_URL' : 'option baseURL',
      headers: options.headers,
      bearerKeyFrom: keyFrom,
    });
    return createOpenAIProvider({
      id,
      kind: 'openai',
      model,
      options,
      apiKey,
      endpoint,
      wire: { maxTokensField: 'max_completion_tokens' },
    });
  },
};
