import type { Message } from '../../src/contracts/model.js';

/** Which wire protocol a request arrived in. */
export type LlmApi = 'openai' | 'openai-responses' | 'anthropic' | 'ollama';

/** A tool as the request offered it, in neutral terms (maps onto RenderedTool without `target`). */
export interface NeutralTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * What a Responder sees: the request, whatever its wire format, in the neutral shapes of src/contracts/model.ts
 * (`messages` are contract `Message`s), so a simulated persona can answer it through a ModelRequest.
 */
export interface NeutralRequest {
  api: LlmApi;
  model: string;
  system: string;
  messages: Message[];
  tools: NeutralTool[];
  stream: boolean;
  stop: string[];
}

export interface MockToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** Made up by the mock when absent (Ollama has no call ids at all). */
  id?: string;
}

export interface MockUsage {
  input: number;
  output: number;
  /** Prompt-cache reads (of `input`). */
  cached?: number;
  /** Prompt-cache writes (of `input`; Anthropic's cache_creation_input_tokens). */
  cacheWrite?: number;
}

/** The model's answer, wire-independent. */
export interface MockReply {
  text?: string;
  toolCalls?: MockToolCall[];
  usage?: MockUsage;
}

export interface ResponderContext {
  /** 1-based number of this request on the server (faulted requests count too). */
  requestNumber: number;
}

export type Responder = (request: NeutralRequest, ctx: ResponderContext) => MockReply | Promise<MockReply>;

/** One injected fault. Effects combine: `delayMs` waits first, then status / truncation / malformed output. */
export interface Fault {
  /** Answer with this HTTP status and the API's own error body. */
  status?: number;
  /** `Retry-After` header value (seconds or an HTTP date), sent with `status`. */
  retryAfter?: string;
  /** `retry-after-ms` header value, sent with `status`. */
  retryAfterMs?: number;
  /** Error message in the error body. */
  message?: string;
  /** Wait this long before answering (a slow model; makes client timeouts testable). */
  delayMs?: number;
  /** Close the socket after this many stream frames (non-stream: after half the body). */
  truncateAfterFrames?: number;
  /**
   * Send this many stream frames, then nothing more while keeping the connection open (a model that stalls
   * mid-reply; non-stream: half the body). The client's timeout has to end it.
   */
  stallAfterFrames?: number;
  /** Send an unparsable frame after the first one (non-stream: an invalid JSON body). */
  malformed?: boolean;
}

/**
 * Faults by request number (1-based, across the server) or by path. For a path, one Fault applies to every request
 * to it; an array applies its i-th entry to the i-th request to that path (none after the end). byRequest wins.
 */
export interface FaultPlan {
  byRequest?: Record<number, Fault>;
  byPath?: Record<string, Fault | Fault[]>;
}

export interface RecordedRequest {
  requestNumber: number;
  /** Arrival time (Date.now()) — lets tests check retry spacing from the server's side. */
  at: number;
  method: string;
  path: string;
  /** The query string as sent, without its `?` ('' when none). */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (or the raw text when it is not JSON). */
  body: unknown;
  api?: LlmApi;
  neutral?: NeutralRequest;
  fault?: Fault;
  /** The body was over the server's limit: refused with 413, not read (`body` is undefined). */
  tooLarge?: boolean;
}

export interface LlmMockOptions {
  port?: number;
  host?: string;
  responder: Responder;
  faults?: FaultPlan;
  /** When set, requests must carry this key (`Authorization: Bearer …` or `x-api-key`), else 401. */
  apiKey?: string;
  /** Largest request body read, in bytes (default 32 MiB): a larger one is refused with 413 before it is buffered. */
  maxBodyBytes?: number;
}

export interface LlmMockHandle {
  /** `http://127.0.0.1:<port>`; OpenAI clients want `${url}/v1`, Anthropic and Ollama clients `url`. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}
