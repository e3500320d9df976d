import type { RenderedTool } from '../contracts/model.js';
import type { ParseTool } from '../contracts/parse.js';
import type { ToolDef } from '../contracts/tool.js';

/**
 * The tools a reply may name, for the parser: each offered tool, and each rendered native name that differs from the
 * tool's own (`math_factorial`), with the tool's schema. Built once per case.
 */
export function parseTools(offered: readonly ToolDef[], rendered: readonly RenderedTool[] | undefined): ParseTool[] {
  const out: ParseTool[] = offered.map((t) => ({ name: t.name, inputSchema: t.inputSchema }));
  for (const r of rendered ?? []) {
    if (r.name === r.target.tool) continue;
    const tool = offered.find((t) => t.server === r.target.server && t.name === r.target.tool);
    out.push({ name: r.name, inputSchema: tool?.inputSchema ?? r.parameters });
  }
  return out;
}
