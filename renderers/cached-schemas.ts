import { z } from 'zod';
import type { RenderedTool } from '../src/contracts/model.js';
import type { Renderer } from '../src/contracts/renderer.js';
import { renderNativeTools } from './native-functions.js';
import { protocolSection } from './parts/call-protocol.js';
import { parseOptions } from './parts/options.js';
import { signature } from './parts/schema-describe.js';
import { caseMessages, firstLine, joinSections, NATIVE_TOOL_USE, PREAMBLE } from './parts/sections.js';
import { textToolNames } from './parts/tool-names.js';

const Options = z
  .object({ protocol: z.enum(['xml-tags', 'native']).optional(), noFences: z.boolean().optional() })
  .strict();

/**
 * Tools from the schema cache (a committed snapshot of `tools/list`; the runner passes a catalog with
 * `source: 'cache'`), as compact signatures in a byte-stable prefix: nothing case-specific comes before the end
 * of the tool section, the case's `system` text comes after it. `cacheHints` tell providers how much is stable.
 * Cache drift (`catalog.drift`) is reported by the runner, never written into the prompt.
 */
export const cachedSchemas: Renderer = {
  name: 'cached-schemas',
  description: 'Compact tool signatures from the schema cache in a byte-stable, cacheable prefix',
  usesCache: true,
  prepare({ catalog, options, provider }) {
    const opts = parseOptions('cached-schemas', Options, options);
    const protocol = opts.protocol ?? 'xml-tags';
    const native = protocol === 'native';
    const tools: RenderedTool[] | undefined = native
      ? renderNativeTools(catalog.tools, provider.kind, catalog.ordered ? { ordered: true } : {})
      : undefined;
    const named = textToolNames(catalog.tools, catalog.ordered);
    // In native mode the signatures must use the names the API knows the tools by.
    const names = tools ? tools.map((t) => t.name) : named.map((t) => t.name);
    const lines = named.map((t, i) => {
      const description = firstLine(t.tool.description ?? t.tool.title);
      return `- ${signature(names[i] ?? t.name, t.tool.inputSchema)}${description ? ` — ${description}` : ''}`;
    });
    const prefix = joinSections(
      PREAMBLE,
      lines.length === 0 ? undefined : `# Tools\n\nYou have access to these tools:\n\n${lines.join('\n')}`,
      lines.length === 0
        ? undefined
        : native
          ? NATIVE_TOOL_USE
          : protocolSection('xml-tags', { noFences: opts.noFences ?? false }),
    );
    return {
      render: (c) => ({
        system: joinSections(prefix, c.system),
        messages: caseMessages(c),
        protocol,
        ...(tools ? { tools } : {}),
        cacheHints: { stablePrefixChars: prefix.length, cachePrefix: true },
      }),
    };
  },
};
