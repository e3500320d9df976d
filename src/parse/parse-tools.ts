import type { RenderedTool } from '../contracts/model.js';
import type { ParseTool } from '../contracts/parse.js';
import type { ToolDef } from '../contracts/tool.js';

/** Rendered lists by offered list; `NONE` stands for a request with no native tools. */
const built = new WeakMap<readonly ToolDef[], WeakMap<object, readonly ParseTool[]>>();
const NONE = {};

/**
 * The tools a reply may name, for the parser: each offered tool, and each rendered native name that differs from the
 * tool's own (`math_factorial`), with the tool's schema. Built once per pair of lists: every case of a strategy and
 * catalog shares them, so the parser's memos keyed by this list's identity (the name index of resolveToolName) are
 * built once per run rather than once per case.
 */
export function parseTools(
  offered: readonly ToolDef[],
  rendered: readonly RenderedTool[] | undefined,
): readonly ParseTool[] {
  let byRendered = built.get(offered);
  if (!byRendered) {
    byRendered = new WeakMap();
    built.set(offered, byRendered);
  }
  let tools = byRendered.get(rendered ?? NONE);
  if (!tools) {
    tools = Object.freeze(buildParseTools(offered, rendered));
    byRendered.set(rendered ?? NONE, tools);
  }
  return tools;
}

function buildParseTools(offered: readonly ToolDef[], rendered: readonly RenderedTool[] | undefined): ParseTool[] {
  const out: ParseTool[] = offered.map((t) => ({ name: t.name, inputSchema: t.inputSchema }));
  for (const r of rendered ?? []) {
    if (r.name === r.target.tool) continue;
    const tool = offered.find((t) => t.server === r.target.server && t.name === r.target.tool);
    out.push({ name: r.name, inputSchema: tool?.inputSchema ?? r.parameters });
  }
  return out;
}
