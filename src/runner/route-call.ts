import type { RenderedTool } from '../contracts/model.js';
import type { ToolDef } from '../contracts/tool.js';
import { resolveToolName } from '../util/resolve-tool-name.js';

export interface CallTarget {
  server: string;
  tool: string;
}

/** Where a call goes (`target`), or, for a name that stands for several offered tools, which ones (`ambiguous`). */
export interface Route {
  target?: CallTarget;
  ambiguous?: string[];
}

/**
 * Where a call named `name` goes. Native requests name tools by their rendered (possibly mangled) names, mapped back
 * through `rendered[].target` first; any other name is resolved against `tools`, the tools the model was offered, as
 * the graders resolve it (src/catalog/resolve-tool-name.ts): the catalog name, `server__tool` / `server/tool`, or the
 * provider-safe form of exactly one tool (`math_factorial` for `math.factorial`), so the tool that runs is the tool
 * the grade names.
 */
export function routeCall(
  name: string,
  rendered: readonly RenderedTool[] | undefined,
  tools: readonly ToolDef[],
): Route {
  const native = rendered?.find((t) => t.name === name);
  if (native) return { target: native.target };
  const r = resolveToolName(name, tools);
  switch (r.how) {
    case 'exact':
    case 'qualified':
    case 'provider-safe':
      return { target: { server: r.server ?? '', tool: r.tool } };
    case 'ambiguous':
      return { ambiguous: r.candidates };
    case 'unknown':
      return {};
  }
}
