import { describe, expect, it } from 'vitest';
import type { RenderedRequest } from '../contracts/renderer.js';
import { requestTokens } from '../util/tokens.js';
import { promptTokens } from './prompt-tokens.js';

const base: RenderedRequest = {
  system: 'You can call these tools. Reply with <tool_call>{"name": …}</tool_call>.',
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  protocol: 'xml-tags',
};

describe('promptTokens', () => {
  it('equals requestTokens, with and without native tools, on first and repeated use', async () => {
    const native: RenderedRequest = {
      ...base,
      protocol: 'native',
      tools: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          target: { server: 'inline', tool: 'get_weather' },
        },
      ],
    };
    for (const req of [base, native, base, native, { ...base, messages: [{ role: 'user' as const, content: 'Hi' }] }]) {
      expect(await promptTokens(req)).toBe(requestTokens(req));
    }
    expect(await promptTokens(native)).toBeGreaterThan(await promptTokens(base));
  });
});
