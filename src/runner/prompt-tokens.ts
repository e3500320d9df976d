import type { RenderedRequest } from '../contracts/renderer.js';
import { countTokens, toolsWireJson } from '../util/tokens.js';

const MAX_ENTRIES = 512;
/** Keyed by the text itself (no prefixing: building `s:${system}` copied the whole prompt for every case). */
const systemMemo = new Map<string, number>();
const toolsMemo = new Map<string, number>();
/** Tool lists seen before, by identity: re-serialising the same definitions per case is skipped too. */
const toolsByList = new WeakMap<object, number>();

/**
 * requestTokens, with the parts every case of a strategy shares (the system prompt, the native tool definitions)
 * counted once: BPE-encoding the same few kilobytes for every case was a third of the runner's CPU time.
 */
export function promptTokens(req: RenderedRequest): number {
  let total = 0;
  for (const message of req.messages) total += countTokens(message.content);
  total += remembered(systemMemo, req.system, () => countTokens(req.system));
  const tools = req.tools;
  if (tools && tools.length > 0) {
    let t = toolsByList.get(tools);
    if (t === undefined) {
      const wire = toolsWireJson(tools);
      t = remembered(toolsMemo, wire, () => countTokens(wire));
      toolsByList.set(tools, t);
    }
    total += t;
  }
  return total;
}

function remembered(memo: Map<string, number>, key: string, count: () => number): number {
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const value = count();
  if (memo.size >= MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
  memo.set(key, value);
  return value;
}
