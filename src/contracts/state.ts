/** A path into a state view or a probe's JSON result: property names and array indices. */
export type StatePath = Array<string | number>;

/** The value a server's state view holds at one path, read after the conversation. */
export interface ViewReading {
  /** The suite's name for the server (its key under `servers:`). */
  server: string;
  path: StatePath;
  /** Whether the view holds anything at the path; `value` is present only when it does. */
  found: boolean;
  value?: unknown;
  /** Why the view could not be read (the server publishes none, say): the fact is then not held. */
  error?: string;
}

/** One read-only tool call a state fact asked for, made after the conversation, and what it returned. */
export interface ProbeReading {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** The result's text as the tool returned it (a fact's path reads into it when it is JSON). */
  result: string;
  isError: boolean;
}

/**
 * What a case's state facts read once its conversation ended: only the values at the paths they name, and the probes'
 * results, so a record stays small and `regrade` judges the state again with no server.
 */
export interface ObservedState {
  views: ViewReading[];
  probes: ProbeReading[];
}
