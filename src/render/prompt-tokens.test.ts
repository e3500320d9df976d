import { describe, expect, it, vi } from 'vitest';
import type { RenderedRequest } from '../contracts/renderer.js';
import { TokenCounter } from '../util/token-counter.js';
import { requestTokens } from '../util/tokens.js';
import { PromptTokens } from './prompt-tokens.js';

const base: RenderedRequest = {
  system: 'You can call these tools. Reply with <tool_call>{"name": …}</tool_call>.',
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  protocol: 'xml-tags',
};

describe('PromptTokens', () => {
  it('equals requestTokens, with and without native tools, on first and repeated use', () => {
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
    const prompts = new PromptTokens(new TokenCounter(null));
    for (const req of [base, native, base, native, { ...base, messages: [{ role: 'user' as const, content: 'Hi' }] }]) {
      expect(prompts.count(req)).toBe(requestTokens(req));
    }
    expect(prompts.count(native)).toBeGreaterThan(prompts.count(base));
  });

  it('counts a text sent again (the same case under another strategy or provider) once', () => {
    const counter = new TokenCounter(null);
    const count = vi.spyOn(counter, 'count');
    const prompts = new PromptTokens(counter);
    const other = { ...base, system: "Another renderer's system prompt." };
    for (const req of [base, other, base]) expect(prompts.count(req)).toBe(requestTokens(req));
    expect(count.mock.calls.map(([text]) => text)).toEqual([base.messages[0]?.content, base.system, other.system]);
  });
});
