import { z } from 'zod';
import type { ProviderKind, RenderedTool } from '../src/contracts/model.js';
import type { Renderer } from '../src/contracts/renderer.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { parseOptions } from './parts/options.js';
import { normalizeSchema } from './parts/schema-normalize.js';
import { caseMessages, firstLine, joinSections, NATIVE_TOOL_USE, PREAMBLE } from './parts/sections.js';
import { nativeToolNames } from './parts/tool-names.js';

const Options = z.object({ summary: z.boolean().optional(), inlineRefs: z.boolean().optional() }).strict();

/** Tools as a provider's native API takes them: valid names (reversible via `target`), normalised schemas. */
export function renderNativeTools(
  tools: readonly ToolDef[],
  kind: ProviderKind,
  options: { inlineRefs?: boolean; ordered?: boolean } = {},
): RenderedTool[] {
  return nativeToolNames(tools, kind, options.ordered).map(({ name, tool, target }) => ({
    name,
    description: tool.description ?? tool.title ?? '',
    parameters: normalizeSchema(tool.inputSchema, kind, options),
    target,
  }));
}

/** `- name: first line of the description` for each tool (mcp-use / fast-agent style summary). */
export function toolSummary(tools: readonly RenderedTool[]): string {
  return [
    'Available tools:',
    ...tools.map((t) => `- ${t.name}${t.description ? `: ${firstLine(t.description)}` : ''}`),
  ].join('\n');
}

/**
 * Provider-native tool definitions in `tools`, plus a short tool-use section in the system prompt (case study
 * 004). Option `summary: true` also lists each tool's name and one-line description in the prompt; `inlineRefs`
 * overrides the per-provider default for `$ref` inlining.
 */
export const nativeFunctions: Renderer = {
  name: 'native-functions',
  description: 'Provider-native tool definitions plus a short tool-use section in the system prompt',
  prepare({ catalog, options, provider }) {
    const opts = parseOptions('native-functions', Options, options);
    const tools = renderNativeTools(catalog.tools, provider.kind, {
      ...(opts.inlineRefs === undefined ? {} : { inlineRefs: opts.inlineRefs }),
      ...(catalog.ordered ? { ordered: true } : {}),
    });
    const section =
      tools.length === 0 ? undefined : joinSections(NATIVE_TOOL_USE, opts.summary ? toolSummary(tools) : undefined);
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
