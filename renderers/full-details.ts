import { z } from 'zod';
import type { Renderer } from '../src/contracts/renderer.js';
import { protocolSection } from './parts/call-protocol.js';
import { parseOptions } from './parts/options.js';
import { caseMessages, joinSections, PREAMBLE } from './parts/sections.js';
import { toolBlock } from './parts/tool-block.js';
import { textToolNames } from './parts/tool-names.js';

const Options = z
  .object({
    protocol: z.enum(['xml-tags', 'json', 'python-call', 'tool-named-xml']).optional(),
    noFences: z.boolean().optional(),
    examples: z.boolean().optional(),
  })
  .strict();

/**
 * Every tool with its description and every parameter (type, nested structure, enum, default, required), plus an
 * explicit call protocol. Options: `protocol` (xml-tags | json | python-call), `noFences` (case 001's rule),
 * `examples` (one example call per tool). No stop sequence: the model may write several calls.
 */
export const fullDetails: Renderer = {
  name: 'full-details',
  description: 'Each tool with description and every parameter (type, required, enum, default); explicit call protocol',
  prepare({ catalog, options }) {
    const opts = parseOptions('full-details', Options, options);
    const protocol = opts.protocol ?? 'xml-tags';
    const named = textToolNames(catalog.tools, catalog.ordered);
    const tools =
      named.length === 0
        ? undefined
        : joinSections(
            '# Tools\n\nYou have access to these tools:',
            ...named.map((t) => toolBlock(t, protocol, opts.examples ?? false)),
            protocolSection(protocol, { noFences: opts.noFences ?? false }),
          );
    return {
      render: (c) => ({ system: joinSections(c.system, PREAMBLE, tools), messages: caseMessages(c), protocol }),
    };
  },
};
