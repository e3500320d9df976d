import picomatch from 'picomatch';
import type { ToolFilter } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';

type Matcher = (tool: ToolDef) => boolean;

/** One matcher for a list of globs; a glob matches the bare tool name or `server/name`. */
function matcherOf(globs: string[]): Matcher {
  const isMatch = picomatch(globs, { dot: true });
  return (tool) => isMatch(tool.name) || isMatch(`${tool.server}/${tool.name}`);
}

/**
 * Narrows a catalog with suite/case filters, applied in the order given (suite first, then case).
 * Within one filter, `include` keeps only tools matching any of its globs (an empty list is ignored),
 * then `exclude` drops tools matching any of its globs. Globs are picomatch patterns tested against the
 * tool name (`read_*`) and against `server/name` (`excel/*`, `*\/write_*`). Order of tools is preserved.
 */
export function filterTools(tools: ToolDef[], ...filters: (ToolFilter | undefined)[]): ToolDef[] {
  let out = tools;
  for (const filter of filters) {
    if (!filter) continue;
    if (filter.include && filter.include.length > 0) {
      const keep = matcherOf(filter.include);
      out = out.filter(keep);
    }
    if (filter.exclude && filter.exclude.length > 0) {
      const drop = matcherOf(filter.exclude);
      out = out.filter((t) => !drop(t));
    }
  }
  return out;
}
