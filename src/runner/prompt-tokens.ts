import type { RenderedRequest } from '../contracts/renderer.js';
import { requestTokens } from '../util/tokens.js';

const MAX_ENTRIES = 512;
const memo = new Map<string, number>();

/**
 * requestTokens, with the parts every case of a strategy shares (the system prompt, the native tool definitions)
 * counted once: BPE-encoding the same few kilobytes for every case was a third of the runner's CPU time.
 */
export function promptTokens(req: RenderedRequest): number {
  let total = requestTokens({ ...req, system: '', tools: [] });
  total += remembered(`s:${req.system}`, () => requestTokens({ ...req, messages: [], tools: [] }));
  if (req.tools && req.tools.length > 0) {
    const tools = req.tools;
    total += remembered(`t:${JSON.stringify(tools)}`, () => requestTokens({ ...req, system: '', messages: [], tools }));
  }
  return total;
}

function remembered(key: string, count: () => number): number {
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const value = count();
  if (memo.size >= MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
  memo.set(key, value);
  return value;
}
