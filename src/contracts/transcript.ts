import type { ModelRequest, ModelResponse } from './model.js';
import type { ParseResult } from './parse.js';
import type { ObservedState } from './state.js';

/** One tool call the agent loop executed against an MCP server (or an inline tool's canned result). */
export interface ToolExecution {
  callId: string;
  /** The name the model used. */
  name: string;
  /** Where it went. */
  server: string;
  tool: string;
  args: unknown;
  /** Text fed back to the model. */
  result: string;
  /** The tool reported an error (`isError`), or the tool is unknown: model-visible data, not a harness error. */
  isError: boolean;
  durationMs: number;
  /** A call to the request's search tool (ModelRequest.toolSearch): the tools it found, best first (catalog names). */
  loaded?: string[];
}

export interface Turn {
  index: number;
  /**
   * Set in a scripted conversation (a case with `turns`): which user message (0-based) this model turn answers. The
   * first model turn of each user message is the request that ends with that message.
   */
  userTurn?: number;
  /** The request as sent. */
  request: ModelRequest;
  response: ModelResponse;
  parse: ParseResult;
  executed: ToolExecution[];
}

export type StopReason = 'answered' | 'max-turns' | 'error' | 'timeout' | 'aborted';

export interface Transcript {
  turns: Turn[];
  /** Text of the last assistant reply. */
  finalText: string;
  stopReason: StopReason;
  /** What the case's state facts (`expect.state`) read after the conversation; absent when it has none. */
  state?: ObservedState;
}
