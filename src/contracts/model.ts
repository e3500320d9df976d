import type { JSONSchema } from './json-schema.js';
import type { ExpectedCall } from './suite.js';

/**
 * How the request asks the model to express tool calls. `tool-named-xml`: an element named after the tool holding one
 * element per parameter, as Cline and Roo Code ask for it.
 */
export type Protocol = 'native' | 'xml-tags' | 'json' | 'python-call' | 'tool-named-xml';

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

/** The kinds of the built-in providers: what renderers shape native tool definitions and names for. */
export type BuiltinProviderKind = 'openai' | 'anthropic' | 'ollama' | 'openai-compatible' | 'sim';

/**
 * A provider's kind: one of the built-in kinds, or any other name a user's provider gives itself (a provider need not
 * pose as a built-in to be run). Renderers treat a kind they do not know conservatively: native tool names of at most
 * 64 characters, JSON Schemas with their `$ref`s inlined. (`string & {}` keeps the built-in names offered by editors.)
 */
export type ProviderKind = BuiltinProviderKind | (string & {});

/**
 * What simulated providers may peek at to know the right answer: not part of the request, it is passed to a provider
 * whose `simulated` is true as `generate`'s third argument, and to no other (it is derived from the case, which the
 * run log already holds; cassettes and run logs never carry it).
 */
export interface Oracle {
  calls: ExpectedCall[];
  noCall: boolean;
  answerMentions: string[];
  /** The case's `expect.order`: `sequence` = one call per turn in this order; absent = `parallel`. */
  order?: 'parallel' | 'sequence';
  /**
   * The tools of the catalog the strategy presents (names and descriptions as shown, search-deferred ones included):
   * the candidates a persona may confuse the expected tool with. Which of them a request reveals is the persona's to
   * read from the request.
   */
  catalog?: { name: string; description: string }[];
  /** Other valid paths to the same result (`expect.alternatives`), each a list of calls: what `sim:detour` takes. */
  alternatives?: ExpectedCall[][];
}

export interface CacheHints {
  /** The system prompt's first `stablePrefixChars` characters are byte-stable across cases (cacheable). */
  stablePrefixChars?: number;
  /**
   * Ask the provider to cache the tools and the stable prefix where its API caches only when asked (the Anthropic
   * provider marks them with `cache_control`); providers whose API caches by itself, or not at all, ignore it.
   */
  cachePrefix?: boolean;
}

/**
 * A request that holds tools back behind a search tool (the `tool-search` renderer): the runner answers calls to
 * `tool` by searching the case's catalog and offers the tools found from the next turn on. Not sent to an API: the
 * search tool itself is in `tools` (native) or described in the system prompt.
 */
export interface ToolSearchSpec {
  /** The search tool's name as offered. */
  tool: string;
  /** `bm25`: a query in words, ranked by BM25; `regex`: a regular expression over names, descriptions and parameters. */
  method: 'bm25' | 'regex';
  /** Most tools one search returns. */
  k: number;
  /** Tools offered from the first request on (catalog names). */
  eager: string[];
  /** Tools held back (the catalog's size less the eager ones), as the prompt announces them. */
  deferred: number;
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
  /**
   * At most this many calls of a reply are executed (Cline-style agents run one tool per message); the rest are
   * answered as not executed, and the model calls them again. Absent: every call.
   */
  maxCallsPerTurn?: number;
  /** The tools are held back behind a search tool the runner answers (see ToolSearchSpec). */
  toolSearch?: ToolSearchSpec;
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
