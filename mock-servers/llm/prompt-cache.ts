import { createHash } from 'node:crypto';
import type { LlmApi, MockUsage, NeutralRequest } from './types.js';

/**
 * The mock's prompt cache, per server, so the real SDK clients see the cache figures the real APIs report. Anthropic
 * caches on request: a body with `cache_control` writes its tools + system prefix the first time
 * (cache_creation_input_tokens) and reads it after (cache_read_input_tokens). OpenAI caches on its own: a prompt of
 * 1,024 tokens or more whose tools + system prefix was seen before reads it, in 128-token steps (cached_tokens).
 * Ollama reports no cache. Token counts are the mock's estimate (~4 characters a token).
 */
export class MockPromptCache {
  private readonly seen = new Set<string>();

  apply(api: LlmApi, body: unknown, neutral: NeutralRequest, usage: MockUsage): MockUsage {
    if (api === 'ollama') return usage;
    const b = body as { system?: unknown; tools?: unknown };
    const prefix =
      api === 'anthropic'
        ? JSON.stringify({ tools: b.tools ?? null, system: b.system ?? null })
        : JSON.stringify({ tools: neutral.tools, system: neutral.system });
    const key = `${api}:${createHash('sha256').update(prefix).digest('hex')}`;
    const tokens = Math.min(usage.input, Math.ceil(prefix.length / 4));
    const hit = this.seen.has(key);
    if (api === 'anthropic') {
      if (!JSON.stringify(body).includes('"cache_control"')) return usage;
      this.seen.add(key);
      return hit ? { ...usage, cached: tokens } : { ...usage, cacheWrite: tokens };
    }
    this.seen.add(key);
    if (!hit || usage.input < 1024) return usage;
    return { ...usage, cached: Math.floor(tokens / 128) * 128 };
  }
}
