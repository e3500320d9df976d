import type { RenderedTool } from '../contracts/model.js';
import type { ToolDef } from '../contracts/tool.js';

export interface CallTarget {
  server: string;
  tool: string;
}

/**
 * Where a call named `name` goes. Native requests name tools by their rendered (possibly mangled) names;
 * text protocols use catalog names, optionally qualified as `server__tool` or `server/tool`.
 */
export function routeCall(
  name: string,
  rendered: RenderedTool[] | undefined,
  tools: ToolDef[],
): CallTarget | undefined {
  const native = rendered?.find((t) => t.name === name);
  if (native) return native.target;
  const exact = tools.find((t) => t.name === name);
  if (exact) return { server: exact.server, tool: exact.name };
  for (const sep of ['__', '/', '.']) {
    const at = name.indexOf(sep);
    if (at > 0) {
      const server = name.slice(0, at);
      const tool = name.slice(at + sep.length);
      const hit = tools.find((t) => t.server === server && t.name === tool);
      if (hit) return { server, tool };
    }
  }
  return undefined;
}
