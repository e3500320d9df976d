import type { ProviderFactory } from '../../src/contracts/provider.js';
import { ToolgaugeError } from '../../src/errors.js';
import { endpointOf } from '../shared/base-url.js';
import { readBaseUrl, readKey } from '../shared/env.js';
import { parseProviderOptions, rejectResponsesApi } from '../shared/options.js';
import { createAnthropicProvider } from './anthropic-provider.js';

export { type AnthropicProviderSettings, createAnthropicProvider } from './anthropic-provider.js';

export const anthropicFactory: ProviderFactory = {
  prefix: 'anthropic',
  description:
    'Anthropic Messages via the official @anthropic-ai/sdk (key: ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL optional)',
  create(model, rawOptions, ctx) {
    const id = `anthropic:${model}`;
    const options = parseProviderOptions(id, rawOptions);
    rejectResponsesApi(id, options);
    if (options.temperature !== undefined) {
      // The Messages API of @anthropic-ai/sdk 1.12 has no `temperature` (deprecated upstream): say so, don't drop it.
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `provider ${id}: option temperature is not supported by the Anthropic Messages API`,
        {
          provider: id,
        },
      );
    }
    const keyFrom = options.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
    const apiKey = readKey(ctx.env, keyFrom, id, true) as string;
    const fromEnv = options.baseURL ? undefined : readBaseUrl(ctx.env, 'ANTHROPIC_BASE_URL');
    // The SDK sends the key as `Authorization: Bearer …`: a userinfo cannot travel beside it.
    const endpoint = endpointOf(options.baseURL ?? fromEnv ?? 'https://api.anthropic.com', {
      providerId: id,
      source: fromEnv ? 'ANTHROPIC_BASE_URL' : 'option baseURL',
      headers: options.headers,
      bearerKeyFrom: keyFrom,
    });
    return createAnthropicProvider({ id, model, options, apiKey, endpoint });
  },
};
