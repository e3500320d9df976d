import { z } from 'zod';
import type { Renderer } from '../src/contracts/renderer.js';
import { protocolSection } from './parts/call-protocol.js';
import { parseOptions } from './parts/options.js';
import { caseMessages, joinSections, PREAMBLE } from './parts/sections.js';
import { textToolNames } from './parts/tool-names.js';

const Options = z.object({ noFences: z.boolean().optional() }).strict();

/**
 * The broken prompt of case study 000: the system prompt names the tools and nothing else — no description,
 * no parameter — then explains the `<tool_call>` protocol with a generic example.
 */
export const namesOnly: Renderer = {
  name: 'names-only',
  description: 'Lists tool names only (the broken prompt of case study 000); xml-tags protocol',
  prepare({ catalog, options }) {
    const opts = parseOptions('names-only', Options, options);
    const names = textToolNames(catalog.tools, catalog.ordered).map((t) => t.name);
    const tools =
      names.length === 0
        ? undefined
        : joinSections(
            [
              'Capabilities:',
              '- Tool Calling: You can use external tools to accomplish tasks',
              `  Available tools: ${names.join(', ')}`,
            ].join('\n'),
            protocolSection('xml-tags', opts),
          );
    return {
      render: (c) => ({
        system: joinSections(c.system, PREAMBLE, tools),
        messages: caseMessages(c),
        protocol: 'xml-tags',
      }),
    };
  },
};
