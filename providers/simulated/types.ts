import type { ModelRequest, NativeCall, Oracle } from '../../src/contracts/index.js';

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

/**
 * What a persona answers: the request as sent, with the case's expectations beside it (the runner passes them to a
 * simulated provider as `generate`'s third argument; they are never part of a request a real provider gets).
 */
export type PersonaRequest = ModelRequest & { oracle?: Oracle };

/** One simulated persona: a pure, deterministic function of the request and the case's expectations. */
export interface Persona {
  name: string;
  description: string;
  reply(request: PersonaRequest): SimReply;
}
