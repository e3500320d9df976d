import type { ProviderFactory } from '../../src/contracts/provider.js';
import { ToolgaugeError } from '../../src/errors.js';
import { createOpenAIProvider } from '../openai/openai-provider.js';
import { endpointOf } from '../shared/base-url.js';
import { readKey } from '../shared/env.js';
import { parseProviderOptions } from '../shared/options.js';

/**
 * Any server speaking OpenAI Chat Completions (vLLM, llama.cpp server, LM Studio, OpenRouter…): the openai SDK with
 * a required `baseURL`. The key comes only from `apiKeyEnv` — never from OPENAI_API_KEY, which would hand an
 * OpenAI key to a third-party server. Without `apiKeyEnv` no real key is sent (local servers need none).
 */
export const openaiCompatibleFactory: ProviderFactory = {
  prefix: 'openai-compatible',
  description: 'Any OpenAI-compatible Chat Completions server (options: baseURL required, apiKeyEnv optional)',
  create(model, rawOptions, ctx) {
    const id = `openai-compatible:${model}`;
    const options = parseProviderOptions(id, rawOptions);
    if (!options.baseURL) {
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `provider ${id}: option baseURL is required (e.g. http://127.0.0.1:8000/v1)`,
        {
          provider: id,
        },
      );
    }
    const apiKey = options.apiKeyEnv ? (readKey(ctx.env, options.apiKeyEnv, id, true) as string) : 'no-key';
    // Without apiKeyEnv the SDK's `Bearer no-key` is a placeholder: a userinfo's Basic credential replaces it.
    const endpoint = endpointOf(options.baseURL, {
      providerId: id,
      source: 'option baseURL',
      headers: options.headers,
      bearerKeyFrom: options.apiKeyEnv,
    });
    return createOpenAIProvider({
      id,
      kind: 'openai-compatible',
      model,
      options,
      apiKey,
      endpoint,
      wire: { maxTokensField: 'max_tokens' },
    });
  },
};
