import { createHash } from 'node:crypto';
import type { ProviderKind } from '../../src/contracts/model.js';
import type { ToolDef } from '../../src/contracts/tool.js';

export interface NamedTool {
  /** The name the model sees and uses. */
  name: string;
  tool: ToolDef;
  target: { server: string; tool: string };
}

/**
 * Stable order (server, then name, by UTF-16 code units rather than locale) so rendered prefixes are byte-identical
 * across runs and machines, which prompt caches need.
 */
export function sortTools(tools: readonly ToolDef[]): ToolDef[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...tools].sort((a, b) => cmp(a.server, b.server) || cmp(a.name, b.name));
}

/** Names shared by tools of different servers. */
function sharedNames(tools: readonly ToolDef[]): Set<string> {
  const servers = new Map<string, Set<string>>();
  for (const t of tools) servers.set(t.name, (servers.get(t.name) ?? new Set()).add(t.server));
  return new Set([...servers].filter(([, s]) => s.size > 1).map(([name]) => name));
}

/**
 * Names for text protocols (sorted): the tool's own name, or `server__tool` when two servers publish the same
 * name. The runner maps a name back with {@link resolveTextToolName}.
 */
export function textToolNames(tools: readonly ToolDef[]): NamedTool[] {
  const shared = sharedNames(tools);
  return sortTools(tools).map((tool) => ({
    name: shared.has(tool.name) ? `${tool.server}__${tool.name}` : tool.name,
    tool,
    target: { server: tool.server, tool: tool.name },
  }));
}

/** Where a text-protocol call named `name` goes, for the tools the renderer was given; undefined if unknown. */
export function resolveTextToolName(
  tools: readonly ToolDef[],
  name: string,
): { server: string; tool: string } | undefined {
  return textToolNames(tools).find((t) => t.name === name)?.target;
}

/** Longest tool name each provider's native API accepts (all also require `^[a-zA-Z0-9_-]+$`). */
export function maxNameLength(kind: ProviderKind): number {
  return kind === 'anthropic' ? 128 : 64;
}

const VALID = /^[a-zA-Z0-9_-]+$/;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

function fitLength(name: string, key: string, max: number): string {
  if (name.length <= max) return name;
  const suffix = `_${shortHash(key)}`;
  return name.slice(0, max - suffix.length) + suffix;
}

/**
 * Names valid for a provider's native tool API (sorted tools): invalid characters become `_`, names shared by
 * two servers become `server__tool`, names past the length limit are cut and end in `_` + 8 hex chars of a hash
 * of `server/tool`, and any remaining clash gets the hash suffix too. `target` keeps the way back.
 */
export function nativeToolNames(tools: readonly ToolDef[], kind: ProviderKind): NamedTool[] {
  const max = maxNameLength(kind);
  const used = new Set<string>();
  return textToolNames(tools).map(({ name, tool, target }) => {
    const key = `${target.server}/${target.tool}`;
    const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
    let valid = fitLength(cleaned, key, max);
    if (used.has(valid) || !VALID.test(valid)) {
      const suffix = `_${shortHash(key)}`;
      valid = cleaned.slice(0, max - suffix.length) + suffix;
    }
    const base = valid;
    for (let n = 2; used.has(valid); n++) valid = `${base.slice(0, max - String(n).length - 1)}_${n}`;
    used.add(valid);
    return { name: valid, tool, target };
  });
}
