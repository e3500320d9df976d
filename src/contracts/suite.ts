/*
 * The suite format as the run reads it. These types are the contract; the zod schemas that read suite files
 * (src/config/suite-schema.ts) are checked against them at compile time, so the two cannot drift apart.
 */

/** Where a suite's tools come from: a bundled server (in-process), a stdio command, or a Streamable HTTP URL. */
export type ServerSpec =
  | { builtin: string }
  | { command: string[]; env?: Record<string, string>; cwd?: string; isolate?: boolean }
  | { url: string; headers?: Record<string, string> };

/** A tool declared in the suite itself (no server). */
export interface InlineTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** Glob patterns of tool names (or `server/tool`) to keep and to drop. */
export interface ToolFilter {
  include?: string[];
  exclude?: string[];
}

/**
 * One expected call. `args` follows BFCL's rules: each parameter maps to its allowed values; a list containing ""
 * means the parameter may be omitted; a parameter not listed must not be sent. Parameters in `free` are checked
 * against the tool's JSON Schema only; `example` gives concrete values for them.
 */
export interface ExpectedCall {
  tool: string;
  args?: Record<string, unknown[]>;
  free?: string[];
  example?: Record<string, unknown>;
}

/**
 * One fact about the state the tools leave behind (the `final-state` grader): read from a server's state view
 * (`server` + `path`) or a read-only tool's result (`probe`, then `path`), matched by exactly one of `equals`,
 * `subset` or `absent`.
 */
export interface StateFact {
  server?: string;
  probe?: { tool: string; args?: Record<string, unknown>; server?: string };
  path?: (string | number)[];
  equals?: unknown;
  subset?: unknown;
  absent?: true;
  tolerance?: number;
}

/** What one answer must do (calls, or no call) and what a case's final answer must mention. */
export interface TurnExpect {
  calls?: ExpectedCall[];
  /** `parallel`: calls may come in any order (one or more turns); `sequence`: in this order across turns. */
  order?: 'parallel' | 'sequence';
  no_call?: boolean;
  answer_mentions?: string[];
  /** Other valid paths to the same result, never graded: `sim:detour` takes the first. */
  alternatives?: ExpectedCall[][];
}

/** A case's expectations: those of one answer, and facts about the servers' state after the conversation. */
export interface Expect extends TurnExpect {
  state?: StateFact[];
}

/** One user message of a scripted conversation, sent after the agent answered the previous one. */
export interface UserTurn {
  prompt: string;
  expect?: TurnExpect;
  maxTurns?: number;
}

/**
 * A case as the run reads it: a conversation's first message is also its `prompt`, and its `expect` holds the
 * state facts only (`{}` when it has none).
 */
export interface SuiteCase {
  id: string;
  prompt: string;
  turns?: UserTurn[];
  system?: string;
  tags?: string[];
  tools?: ToolFilter;
  /** Inline tools of this case only; when present they replace the suite-level inline `tools`. */
  functions?: InlineTool[];
  expect: Expect;
  /** Canned results for inline tools: tool name → result text or JSON. */
  results?: Record<string, unknown>;
  maxTurns?: number;
  maxTotalTurns?: number;
}

export interface Suite {
  name: string;
  description?: string;
  servers?: Record<string, ServerSpec>;
  tools?: InlineTool[];
  toolFilter?: ToolFilter;
  cases: SuiteCase[];
}
