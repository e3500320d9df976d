import type { ProviderKind } from '../../src/contracts/model.js';
import type { ToolDef } from '../../src/contracts/tool.js';
import { providerSafeNames, textNames } from '../../src/util/provider-safe-name.js';

export { sortTools } from '../../src/util/provider-safe-name.js';

export interface NamedTool {
  /** The name the model sees and uses. */
  name: string;
  tool: ToolDef;
  target: { server: string; tool: string };
}

/**
 * `named` (sorted by server and name) in the order of `tools` when `ordered` (a catalog variant's `order`): names are
 * always given in the sorted order, so a tool keeps its name whatever order it is shown in.
 */
function inOrder(named: NamedTool[], tools: readonly ToolDef[], ordered: boolean | undefined): NamedTool[] {
  if (!ordered) return named;
  const at = new Map<ToolDef, number>();
  for (const [i, t] of tools.entries()) if (!at.has(t)) at.set(t, i);
  return [...named].sort((a, b) => (at.get(a.tool) ?? 0) - (at.get(b.tool) ?? 0));
}

/**
 * Names for text protocols (sorted, or in the catalog's order when it is `ordered`): the tool's own name, or
 * `server__tool` when two servers publish the same name. The runner maps a name back with
 * {@link resolveTextToolName}.
 */
export function textToolNames(tools: readonly ToolDef[], ordered?: boolean): NamedTool[] {
  const named = textNames(tools).map(({ name, tool }) => ({
    name,
    tool,
    target: { server: tool.server, tool: tool.name },
  }));
  return inOrder(named, tools, ordered);
}

/** Where a text-protocol call named `name` goes, for the tools the renderer was given; undefined if unknown. */
export function resolveTextToolName(
  tools: readonly ToolDef[],
  name: string,
): { server: string; tool: string } | undefined {
  return textToolNames(tools).find((t) => t.name === name)?.target;
}

/**
 * Longest tool name each provider's native API accepts (all also require `^[a-zA-Z0-9_-]+$`); a kind this does not
 * know gets the shortest limit.
 */
export function maxNameLength(kind: ProviderKind): number {
  return kind === 'anthropic' ? 128 : 64;
}

/**
 * Names valid for a provider's native tool API (sorted tools): invalid characters become `_`, names shared by
 * two servers become `server__tool`, names past the length limit are cut and end in `_` + 8 hex chars of a hash
 * of `server/tool`, and any remaining clash gets the hash suffix too. `target` keeps the way back. The mapping is
 * src/catalog/provider-safe-name.ts's, which name resolution also matches recorded names against.
 */
export function nativeToolNames(tools: readonly ToolDef[], kind: ProviderKind, ordered?: boolean): NamedTool[] {
  const named = providerSafeNames(tools, maxNameLength(kind)).map(({ name, tool }) => ({
    name,
    tool,
    target: { server: tool.server, tool: tool.name },
  }));
  return inOrder(named, tools, ordered);
}
