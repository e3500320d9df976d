import { z } from 'zod';
import type { Renderer } from '../src/contracts/renderer.js';
import { protocolSection, toolNamedXml } from './parts/call-protocol.js';
import { parseOptions } from './parts/options.js';
import { propertiesOf, resolve, rootContext } from './parts/schema-walk.js';
import { caseMessages, joinSections } from './parts/sections.js';
import { type NamedTool, textToolNames } from './parts/tool-names.js';

const Options = z
  .object({
    noFences: z.boolean().optional(),
    /** Run only the first tool of a reply, as these agents do (default true). */
    oneToolPerMessage: z.boolean().optional(),
  })
  .strict();

const INTRO = [
  'TOOL USE',
  '',
  'You can use the tools below, one per message; each use is run once the user approves it, and its result comes back in the next message. Work step by step: use a tool, read its result, then decide the next step.',
].join('\n');

const RULES = [
  '# Rules',
  '',
  '- Use exactly one tool per message, and wait for its result before using another.',
  '- Fill in every required parameter from the task or from earlier results; leave out an optional one you have no value for.',
  '- When the task is done, or needs no tool, answer the user in plain text without any tool element.',
].join('\n');

/** One tool as these agents describe theirs: description, each parameter as (required) or (optional), a usage block. */
function toolSection({ name, tool }: NamedTool): string {
  const ctx = rootContext(tool.inputSchema);
  const params = propertiesOf(tool.inputSchema, ctx);
  const lines = [`## ${name}`, `Description: ${tool.description?.trim() || tool.title?.trim() || '(none)'}`];
  lines.push(params.length ? 'Parameters:' : 'Parameters: none');
  for (const p of params) {
    const d = resolve(p.schema, ctx).schema.description;
    lines.push(
      `- ${p.name}: (${p.required ? 'required' : 'optional'})${typeof d === 'string' && d.trim() ? ` ${d.trim()}` : ''}`,
    );
  }
  const usage = Object.fromEntries(params.filter((p) => p.required).map((p) => [p.name, `${p.name} here`]));
  lines.push('Usage:', toolNamedXml(name, usage));
  return lines.join('\n');
}

/**
 * Tool use as Cline and Roo Code write it into the system prompt: each tool an XML element named after it, one element
 * per parameter, described with its usage; one tool per message (the runner executes the first call of a reply and
 * answers the others as not run). Protocol `tool-named-xml`. Options: `noFences`, `oneToolPerMessage` (default true).
 * Written from the public description of the format, in our own words.
 */
export const clineXml: Renderer = {
  name: 'cline-xml',
  description: 'Cline/Roo-style XML tool use: tool-named elements described in the system prompt, one tool per message',
  prepare({ catalog, options }) {
    const opts = parseOptions('cline-xml', Options, options);
    const named = textToolNames(catalog.tools, catalog.ordered);
    const tools =
      named.length === 0
        ? undefined
        : joinSections(
            INTRO,
            protocolSection('tool-named-xml', { noFences: opts.noFences ?? false }),
            `# Tools\n\n${named.map(toolSection).join('\n\n')}`,
            RULES,
          );
    const one = opts.oneToolPerMessage ?? true;
    return {
      render: (c) => ({
        system: joinSections(c.system, 'You are a capable assistant that completes tasks with tools.', tools),
        messages: caseMessages(c),
        protocol: 'tool-named-xml',
        ...(one ? { maxCallsPerTurn: 1 } : {}),
      }),
    };
  },
};
