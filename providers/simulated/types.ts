import type { ModelRequest, NativeCall } from '../../src/contracts/index.js';

/** A call a persona decided to make: `tool` is the catalog tool, `name` the name it writes (rendered name for native). */
export interface SimCall {
  tool: string;
  name: string;
  args: Record<string, unknown>;
}

/** What a persona replies, before it is wrapped into a ModelResponse. */
export interface SimReply {
  text: string;
  toolCalls: NativeCall[];
}

/** One simulated persona: a pure, deterministic function of the request. */
export interface Persona {
  name: string;
  description: string;
  reply(request: ModelRequest): SimReply;
}
