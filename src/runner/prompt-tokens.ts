import type { RenderedRequest } from '../contracts/renderer.js';
import { sharedTokenCounter, type TokenCounter } from '../util/token-counter.js';
import { toolsWireJson } from '../util/tokens.js';

const MAX_ENTRIES = 512;
/** Keyed by the text itself (no prefixing: building `s:${system}` copied the whole prompt for every case). */
const systemMemo = new Map<string, Promise<number> | number>();
const toolsMemo = new Map<string, Promise<number> | number>();
/** Tool lists seen before, by identity: re-serialising the same definitions per case is skipped too. */
const toolsByList = new WeakMap<object, Promise<number> | number>();

/**
 * requestTokens, with the parts every case of a strategy shares (the system prompt, the native tool definitions)
 * counted once: BPE-encoding the same few kilobytes for every case was a third of the runner's CPU time. Counted by
 * the token worker (token-counter.ts), so the tokenizer neither delays start-up nor takes the runner's thread.
 */
export async function promptTokens(
  req: RenderedRequest,
  counter: TokenCounter = sharedTokenCounter(),
): Promise<number> {
  const parts: Array<Promise<number> | number> = [];
  for (const message of req.messages) parts.push(counter.count(message.content));
  parts.push(remembered(systemMemo, req.system, () => counter.count(req.system)));
  const tools = req.tools;
  if (tools && tools.length > 0) {
    let t = toolsByList.get(tools);
    if (t === undefined) {
      const wire = toolsWireJson(tools);
      t = remembered(toolsMemo, wire, () => counter.count(wire));
      toolsByList.set(tools, t);
    }
    parts.push(t);
  }
  let total = 0;
  for (const p of parts) total += typeof p === 'number' ? p : await p;
  return total;
}

function remembered<T>(memo: Map<string, T>, key: string, count: () => T): T {
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const value = count();
  if (memo.size >= MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
  memo.set(key, value);
  return value;
}
