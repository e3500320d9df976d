/** Typed error codes. Infrastructure faults throw these; model mistakes never do. */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_NOT_FOUND'
  | 'SUITE_INVALID'
  | 'UNKNOWN_RENDERER'
  | 'UNKNOWN_PROVIDER'
  | 'UNKNOWN_GRADER'
  | 'UNKNOWN_REPORTER'
  /** A renderer, provider, grader or reporter given by path that fails to load or lacks a member of its contract. */
  | 'PLUGIN_INVALID'
  /** A reporter's hook threw: the run log is complete, a report may not be. */
  | 'REPORTER_FAILED'
  | 'UNKNOWN_SERVER'
  | 'SERVER_START'
  | 'SERVER_CRASH'
  /** A stdio server ended by a signal toolgauge did not send (SIGINT, SIGTERM, SIGHUP, SIGQUIT): asked to stop, not crashed. */
  | 'SERVER_INTERRUPTED'
  | 'SERVER_TIMEOUT'
  /** A tool result over the MCP transport's message limit: nothing crashed, the message was not read. */
  | 'TOOL_RESULT_TOO_LARGE'
  /** An MCP server that answered past a bound (a tools/list that never ends): nothing crashed, it was not read on. */
  | 'SERVER_BAD_RESPONSE'
  | 'PROVIDER_AUTH'
  | 'PROVIDER_HTTP'
  | 'PROVIDER_TIMEOUT'
  | 'PROVIDER_NETWORK'
  | 'PROVIDER_RATE_LIMIT'
  | 'PROVIDER_BAD_RESPONSE'
  | 'CASE_TIMEOUT'
  | 'ABORTED'
  | 'REPLAY_MISS'
  /** A file of the run could not be written (the disk is full, the folder became read-only): exit 3. */
  | 'WRITE_FAILED'
  | 'USAGE'
  | 'INTERNAL';

export class ToolgaugeError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolgaugeError';
    this.code = code;
    if (details) this.details = details;
  }
}

/** Errors that make the run unusable as configured (exit code 2). */
export const USAGE_CODES: ReadonlySet<ErrorCode> = new Set([
  'CONFIG_INVALID',
  'CONFIG_NOT_FOUND',
  'SUITE_INVALID',
  'UNKNOWN_RENDERER',
  'UNKNOWN_PROVIDER',
  'UNKNOWN_GRADER',
  'UNKNOWN_REPORTER',
  'PLUGIN_INVALID',
  'UNKNOWN_SERVER',
  'SERVER_START',
  // A provider's API key missing from the environment (or refused): the user's setup to fix, not a fault of ours.
  'PROVIDER_AUTH',
  'USAGE',
]);

/** Exit code of a bad invocation or configuration: an unknown option, a bad value, a missing file or key, a busy port. */
export const EXIT_USAGE = 2;

/** Exit code of an infrastructure fault or a bug: the run could not be carried out as configured. */
export const EXIT_INTERNAL = 3;

/** Exit code of a run interrupted by the user (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** The exit code a command that failed with `e` ends with: EXIT_USAGE for the usage codes, else EXIT_INTERNAL. */
export function exitCodeOf(e: unknown): number {
  return isToolgaugeError(e) && USAGE_CODES.has(e.code) ? EXIT_USAGE : EXIT_INTERNAL;
}

export function isToolgaugeError(e: unknown): e is ToolgaugeError {
  return e instanceof ToolgaugeError;
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
