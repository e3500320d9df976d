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
 * Names for text protocols (sorted): the tool's own name, or `server__tool` when two servers publish the same
 * name. The runner maps a name back with {@link resolveTextToolName}.
 */
export function textToolNames(tools: readonly ToolDef[]): NamedTool[] {
  return textNames(tools).map(({ name, tool }) => ({ name, tool, target: { server: tool.server, tool: tool.name } }));
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

/**
 * Names valid for a provider's native tool API (sorted tools): invalid characters become `_`, names shared by
 * two servers become `server__tool`, names past the length limit are cut and end in `_` + 8 hex chars of a hash
 * of `server/tool`, and any remaining clash gets the hash suffix too. `target` keeps the way back. The mapping is
 * src/catalog/provider-safe-name.ts's, which name resolution also matches recorded names against.
 */
export function nativeToolNames(tools: readonly ToolDef[], kind: ProviderKind): NamedTool[] {
  return providerSafeNames(tools, maxNameLength(kind)).map(({ name, tool }) => ({
    name,
    tool,
    target: { server: tool.server, tool: tool.name },
  }));
}
