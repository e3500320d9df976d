import type { JSONSchema } from './json-schema.js';
import type { ExpectedCall } from './suite.js';

/** How the request asks the model to express tool calls. */
export type Protocol = 'native' | 'xml-tags' | 'json' | 'python-call';

/** A tool call as a provider's native API returns it. `arguments` is whatever the API sent (often a JSON string). */
export interface NativeCall {
  id: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

export type Message =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: NativeCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

/** A tool as sent to a provider's native tool API (name already made valid for that provider). */
export interface RenderedTool {
  name: string;
  description: string;
  parameters: JSONSchema;
  /** Where the call goes when the model uses `name`. */
  target: { server: string; tool: string };
}

export type ProviderKind = 'openai' | 'anthropic' | 'ollama' | 'openai-compatible' | 'sim';

/**
 * What simulated providers may peek at to know the right answer. Real providers ignore it, and it is
 * stripped from cassettes and run logs (it is derived from the case, which the run log already holds).
 */
export interface Oracle {
  calls: ExpectedCall[];
  noCall: boolean;
  answerMentions: string[];
  /** The case's `expect.order`: `sequence` = one call per turn in this order; absent = `parallel`. */
  order?: 'parallel' | 'sequence';
  /** Other valid paths to the same result (`expect.alternatives`), each a list of calls: what `sim:detour` takes. */
  alternatives?: ExpectedCall[][];
}

export interface CacheHints {
  /** The system prompt's first `stablePrefixChars` characters are byte-stable across cases (cacheable). */
  stablePrefixChars?: number;
  /** Ask Anthropic to cache the tools + system prefix (`cache_control: {type: 'ephemeral'}`). */
  anthropicCacheControl?: boolean;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  /** Native tool definitions; present only when `protocol === 'native'`. */
  tools?: RenderedTool[];
  protocol: Protocol;
  cacheHints?: CacheHints;
  /** Text after which the model should stop (e.g. `</tool_call>`); providers pass it as a stop sequence. */
  stop?: string[];
  oracle?: Oracle;
  /** Identifies the case for deterministic simulated replies; never sent to a real API. */
  meta: { caseId: string; repeat: number; seed: number; renderer: string; turn: number };
}

/** Token counts as the provider reported them. `input` counts every prompt token, cached or not. */
export interface Usage {
  input: number;
  output: number;
  /** Prompt-cache reads, part of `input` (OpenAI cached_tokens, Anthropic cache_read_input_tokens). */
  cached?: number;
  /** Prompt-cache writes, part of `input` (Anthropic cache_creation_input_tokens). */
  cacheWrite?: number;
}

export interface ModelResponse {
  text: string;
  toolCalls: NativeCall[];
  finishReason: string;
  usage?: Usage;
  latencyMs: number;
  raw: { request: unknown; response: unknown };
}
