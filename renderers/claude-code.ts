import { z } from 'zod';
import type { RenderedTool } from '../src/contracts/model.js';
import type { Renderer } from '../src/contracts/renderer.js';
import { fitLength, hashedName, nameKey, safeCharacters } from '../src/util/provider-safe-name.js';
import { parseOptions } from './parts/options.js';
import { normalizeSchema } from './parts/schema-normalize.js';
import { caseMessages, joinSections, NATIVE_TOOL_USE, PREAMBLE } from './parts/sections.js';
import { maxNameLength, sortTools } from './parts/tool-names.js';

const Options = z.object({ inlineRefs: z.boolean().optional() }).strict();

const NAMING = [
  '# MCP tools',
  '',
  'Tools from MCP servers are named mcp__<server>__<tool>: call them by that full name.',
].join('\n');

/**
 * Native tool definitions named the way Claude Code names an MCP server's tools, `mcp__<server>__<tool>` (made valid
 * for the provider's API as native-functions makes names valid: unsafe characters to `_`, a name past the limit cut
 * and ended in a hash), with a short tool-use section. Graders map the names back through the request's tools, and
 * name resolution also reads `mcp__server__tool` in text. Option `inlineRefs`. Written from the public description
 * of the naming, in our own words.
 */
export const claudeCode: Renderer = {
  name: 'claude-code',
  description: 'Claude Code-style native tools named mcp__server__tool',
  prepare({ catalog, options, provider }) {
    const opts = parseOptions('claude-code', Options, options);
    const max = maxNameLength(provider.kind);
    const list = catalog.ordered ? catalog.tools : sortTools(catalog.tools);
    const used = new Set<string>();
    const tools: RenderedTool[] = list.map((tool) => {
      const full = safeCharacters(`mcp__${tool.server}__${tool.name}`);
      let name = fitLength(full, nameKey(tool), max);
      if (used.has(name)) name = hashedName(full, nameKey(tool), max);
      used.add(name);
      return {
        name,
        description: tool.description ?? tool.title ?? '',
        parameters: normalizeSchema(
          tool.inputSchema,
          provider.kind,
          opts.inlineRefs === undefined ? {} : { inlineRefs: opts.inlineRefs },
        ),
        target: { server: tool.server, tool: tool.name },
      };
    });
    const section = tools.length === 0 ? undefined : joinSections(NATIVE_TOOL_USE, NAMING);
    return {
      render: (c) => ({
        system: joinSections(c.system, PREAMBLE, section),
        messages: caseMessages(c),
        protocol: 'native',
        tools,
      }),
    };
  },
};
