import type { ModelResponse, Usage } from '../contracts/model.js';

/** A token count as a provider reported it, when it is one: a finite number, not negative. */
const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

/**
 * The response with its usage made of counts: a server (or a provider plugin) that reports `"prompt_tokens": 1e999`
 * (Infinity, written as null), `"12"` or -5 made the case record one its own schema refuses, so `report`, `regrade`
 * and `--resume` called the run log corrupt. A figure that is not a count is taken as not reported (0 in the sums).
 */
export function reportedUsage(response: ModelResponse): ModelResponse {
  const raw = response.usage as Record<string, unknown> | undefined;
  if (raw === undefined) return response;
  const usage: Usage = { input: count(raw.input) ?? 0, output: count(raw.output) ?? 0 };
  const cached = count(raw.cached);
  if (cached !== undefined) usage.cached = cached;
  const cacheWrite = count(raw.cacheWrite);
  if (cacheWrite !== undefined) usage.cacheWrite = cacheWrite;
  return { ...response, usage };
}
