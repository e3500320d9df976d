import type { ModelRequest, ModelResponse, Oracle, ProviderKind } from './model.js';

export interface Provider {
  /** As written in the config, e.g. `openai:gpt-4o-mini`, `sim:guesser`. */
  id: string;
  kind: ProviderKind;
  simulated: boolean;
  /**
   * One model turn. The runner always passes `signal`, which aborts the turn (run interrupted, turn or case timed
   * out); a provider that ignores it is still never waited on past its timeout. Optional in the type only so that a
   * provider can be called directly (tests, benchmarks) without one. `oracle`, the case's expectations, is passed
   * only to a provider whose `simulated` is true (the personas answer from it); a real provider never gets it.
   */
  generate(request: ModelRequest, signal?: AbortSignal, oracle?: Oracle): Promise<ModelResponse>;
  close?(): Promise<void>;
}

export interface ProviderContext {
  /** Environment to read keys from (defaults to process.env). */
  env: Record<string, string | undefined>;
}

/** Creates providers for one id prefix (`openai`, `sim`, …). `model` is the part after the first colon. */
export interface ProviderFactory {
  prefix: string;
  description: string;
  create(model: string, options: Record<string, unknown>, ctx: ProviderContext): Provider;
}
