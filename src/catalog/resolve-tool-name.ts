/** A tool as name resolution needs it: the name it was offered under, and its server when known. */
export interface NamedTool {
  name: string;
  server?: string;
}

/**
 * How a called name maps to an offered tool:
 * - `exact`: an offered tool has that name;
 * - `qualified`: `server__tool` (or `server/tool`, `server.tool`) naming an offered tool of that server;
 * - `provider-safe`: the provider-safe form of exactly one offered tool (`math_factorial` for `math.factorial`);
 * - `ambiguous`: the provider-safe form of several offered tools (`candidates`); stays a hallucination;
 * - `unknown`: no offered tool.
 */
export type NameResolution =
  | { how: 'exact' | 'qualified' | 'provider-safe'; tool: string; server?: string; called: string }
  | { how: 'ambiguous'; candidates: string[]; called: string }
  | { how: 'unknown'; called: string };

/**
 * The offered tool a called name stands for. (Work in progress: only exact names resolve yet.)
 */
export function resolveToolName(called: string, offered: readonly NamedTool[]): NameResolution {
  const exact = offered.find((t) => t.name === called);
  if (exact) return { how: 'exact', tool: exact.name, ...(exact.server ? { server: exact.server } : {}), called };
  return { how: 'unknown', called };
}
