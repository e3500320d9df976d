import type { ProviderFactory } from '../../src/contracts/provider.js';
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
    const apiKey = readKey(ctx.env, options.apiKeyEnv ?? 'OPENAI_API_KEY', id, true) as string;
    const baseURL = options.baseURL ?? readBaseUrl(ctx.env, 'OPENAI_BASE_URL') ?? 'https://api.openai.com/v1';
    return createOpenAIProvider({
      id,
      kind: 'openai',
      model,
      options,
      apiKey,
      baseURL,
      wire: { maxTokensField: 'max_completion_tokens' },
    });
  },
};
