import type { RenderedRequest } from '../contracts/renderer.js';
import { TokenCounter } from '../util/token-counter.js';
import { toolsWireJson } from '../util/tokens.js';

/** Distinct system prompts remembered per run (a suite may give each case its own system text). */
const MAX_SYSTEM_PROMPTS = 512;
/**
 * Message texts remembered: the plan runs each case under every strategy and provider in a row, and most renderers
 * send the case's prompt unchanged, so a short memory catches the repeats without holding a run's worth of texts.
 */
const MAX_MESSAGES = 256;

/**
 * requestTokens for the cases of one run, with the parts every case of a strategy shares (the system prompt, the
 * native tool definitions) counted once: BPE-encoding the same few kilobytes for every case was a third of the
 * runner's CPU time. One per run (RunContext); nothing outlives it.
 */
export class PromptTokens {
  private readonly systems = new Map<string, number>();
  private readonly messages = new Map<string, number>();
  /** By the identity of a prepared renderer's tool list: every case of a strategy shares it. */
  private readonly toolLists = new WeakMap<object, number>();

  constructor(readonly counter: TokenCounter = new TokenCounter()) {}

  count(req: RenderedRequest): number {
    let total = 0;
    for (const message of req.messages) total += this.message(message.content);
    let system = this.systems.get(req.system);
    if (system === undefined) {
      system = this.counter.count(req.system);
      if (this.systems.size >= MAX_SYSTEM_PROMPTS) this.systems.clear();
      this.systems.set(req.system, system);
    }
    total += system;
    const tools = req.tools;
    if (tools && tools.length > 0) {
      let n = this.toolLists.get(tools);
      if (n === undefined) {
        n = this.counter.count(toolsWireJson(tools));
        this.toolLists.set(tools, n);
      }
      total += n;
    }
    return total;
  }

  private message(text: string): number {
    let n = this.messages.get(text);
    if (n === undefined) {
      n = this.counter.count(text);
      if (this.messages.size >= MAX_MESSAGES) this.messages.clear();
      this.messages.set(text, n);
    }
    return n;
  }

  /** Writes the counts learnt in this run to the disk cache. */
  save(): void {
    this.counter.save();
  }
}
