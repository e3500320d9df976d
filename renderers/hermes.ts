import { z } from 'zod';
import type { Renderer } from '../src/contracts/renderer.js';
import { protocolSection } from './parts/call-protocol.js';
import { parseOptions } from './parts/options.js';
import { caseMessages, joinSections } from './parts/sections.js';
import { textToolNames } from './parts/tool-names.js';

const Options = z.object({ noFences: z.boolean().optional() }).strict();

/**
 * The Hermes function-calling prompt, as open models trained on it (Hermes, Qwen) expect it: the tools as JSON
 * function signatures inside `<tools></tools>` in the system prompt, one per line, and calls written as
 * `<tool_call>{"name": …, "arguments": …}</tool_call>` (protocol xml-tags). Option `noFences`. Written from the public
 * description of the format, in our own words.
 */
export const hermes: Renderer = {
  name: 'hermes',
  description: 'Hermes-style: JSON signatures inside <tools></tools> in the system prompt, <tool_call> replies',
  prepare({ catalog, options }) {
    const opts = parseOptions('hermes', Options, options);
    const named = textToolNames(catalog.tools, catalog.ordered);
    const signatures = named.map(({ name, tool }) =>
      JSON.stringify({
        type: 'function',
        function: { name, description: tool.description ?? tool.title ?? '', parameters: tool.inputSchema },
      }),
    );
    const tools =
      named.length === 0
        ? undefined
        : joinSections(
            'You are an assistant that can call functions. The functions available to you are described by the JSON signatures between the <tools></tools> tags. Call one only when it helps with the request, and never invent values for its arguments.',
            `<tools>\n${signatures.join('\n')}\n</tools>`,
            protocolSection('xml-tags', { noFences: opts.noFences ?? false }),
          );
    return {
      render: (c) => ({
        system: joinSections(c.system, tools ?? 'You are a helpful assistant.'),
        messages: caseMessages(c),
        protocol: 'xml-tags',
      }),
    };
  },
};
