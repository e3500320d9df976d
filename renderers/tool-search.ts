import { z } from 'zod';
import type { RenderedTool, ToolSearchSpec } from '../src/contracts/model.js';
import type { Renderer } from '../src/contracts/renderer.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { renderNativeTools } from './native-functions.js';
import { protocolSection } from './parts/call-protocol.js';
import { parseOptions } from './parts/options.js';
import { caseMessages, firstLine, joinSections, NATIVE_TOOL_USE, PREAMBLE } from './parts/sections.js';
import { toolBlock } from './parts/tool-block.js';
import { textToolNames } from './parts/tool-names.js';

const Options = z
  .object({
    k: z.number().int().min(1).max(50).optional(),
    method: z.enum(['bm25', 'regex']).optional(),
    eager: z.array(z.string().min(1)).optional(),
    protocol: z.enum(['native', 'xml-tags', 'json', 'python-call', 'tool-named-xml']).optional(),
  })
  .strict();

/** The search tool's name: `tool_search`, or with a number when the catalog has a tool of that name. */
function searchToolName(taken: ReadonlySet<string>): string {
  let name = 'tool_search';
  for (let n = 2; taken.has(name); n++) name = `tool_search_${n}`;
  return name;
}

/** The search tool, in our own words: what it searches, what it takes, what it returns. */
function searchTool(name: string, method: ToolSearchSpec['method'], k: number, deferred: number): ToolDef {
  const bm25 = method === 'bm25';
  return {
    name,
    description: bm25
      ? `Find tools to load. ${deferred} more tools are available than the ones listed; describe in a few words what you need done (the action and what it acts on) and up to ${k} of the best-matching tools are returned with their definitions. You can call them from your next reply.`
      : `Find tools to load. ${deferred} more tools are available than the ones listed; give a regular expression (case-insensitive) and up to ${k} tools whose name, description or parameters match it are returned with their definitions. You can call them from your next reply.`,
    inputSchema: {
      type: 'object',
      properties: bm25
        ? { query: { type: 'string', description: 'What the tool should do, in a few words' } }
        : { pattern: { type: 'string', description: 'A regular expression, e.g. "read.*file" or "spreadsheet"' } },
      required: [bm25 ? 'query' : 'pattern'],
    },
    server: 'toolgauge',
  };
}

const NOTE = /Only some of your tools are loaded\. (\d+) more can be found with ([A-Za-z0-9_-]+):/;

/**
 * The tool search a rendered request offers, read back from its prompt (and native tools) alone: for a server that
 * sees only what went over the wire (the `serve llm` mock), as protocolOfPrompt reads the protocol. Undefined for a
 * request without the deferred-tools note this renderer writes.
 */
export function toolSearchOfPrompt(
  system: string,
  tools: readonly { name: string; description: string; parameters: Record<string, unknown> }[] = [],
): ToolSearchSpec | undefined {
  const m = NOTE.exec(system);
  if (!m) return undefined;
  const name = m[2] as string;
  const native = tools.find((t) => t.name === name);
  const text = native ? `${native.description} ${JSON.stringify(native.parameters)}` : system;
  const regex = native ? /"pattern"/.test(text) : new RegExp(`## ${name}[\\s\\S]*?- pattern \\(`).test(system);
  const k = Number(/up to (\d+)/.exec(text)?.[1] ?? 5);
  return { tool: name, method: regex ? 'regex' : 'bm25', k, eager: [], deferred: Number(m[1]) };
}

function deferredNote(name: string, deferred: number): string {
  return [
    '# Finding tools',
    '',
    `Only some of your tools are loaded. ${deferred} more can be found with ${name}: search for what the task needs, then call the tools the search returns. Search before concluding that no tool can help.`,
  ].join('\n');
}

/**
 * Tool search, as agents that defer their tools do it: the first request offers a search tool (and the `eager` tools);
 * the runner answers a search with the best `k` matches of the catalog (`method`: BM25 over names, descriptions and
 * parameters, or a regular expression), which are offered from the next turn on (natively, or defined in the
 * search's result for a text `protocol`). Options: `k` (default 5), `method` (bm25 | regex), `eager` (catalog tool
 * names always loaded; names not in a case's catalog are ignored), `protocol` (native | xml-tags | json |
 * python-call; default native).
 */
export const toolSearch: Renderer = {
  name: 'tool-search',
  description: 'A search tool instead of the catalog: the tools a search finds are offered from the next turn',
  prepare({ catalog, options, provider }) {
    const opts = parseOptions('tool-search', Options, options);
    const protocol = opts.protocol ?? 'native';
    const method = opts.method ?? 'bm25';
    const k = opts.k ?? 5;
    const eagerNames = new Set(opts.eager ?? []);
    const eager = catalog.tools.filter((t) => eagerNames.has(t.name));
    const deferred = catalog.tools.length - eager.length;
    const name = searchToolName(new Set(catalog.tools.map((t) => t.name)));
    const search = searchTool(name, method, k, deferred);
    const spec: ToolSearchSpec = { tool: name, method, k, eager: eager.map((t) => t.name), deferred };
    if (protocol === 'native') {
      // every tool is named once, over the whole catalog, so a tool loaded later has the name it would always have
      const all = renderNativeTools(catalog.tools, provider.kind, catalog.ordered ? { ordered: true } : {});
      const byKey = new Map(all.map((t) => [keyOf(t.target.server, t.target.tool), t]));
      const [searchRendered] = renderNativeTools([search], provider.kind);
      const first: RenderedTool[] = [
        { ...(searchRendered as RenderedTool), name, target: { server: '', tool: name } },
        ...all.filter((t) => eagerNames.has(t.target.tool)),
      ];
      const system = joinSections(NATIVE_TOOL_USE, deferredNote(name, deferred));
      return {
        render: (c) => ({
          system: joinSections(c.system, PREAMBLE, system),
          messages: caseMessages(c),
          protocol,
          tools: first,
          toolSearch: spec,
        }),
        expand(found) {
          const tools = found
            .map((t) => byKey.get(keyOf(t.server, t.name)))
            .filter((t): t is RenderedTool => t !== undefined);
          const lines = tools.map((t) => `- ${t.name}${t.description ? `: ${firstLine(t.description)}` : ''}`);
          return { tools, text: `Loaded ${tools.length} tool(s), callable from now on:\n${lines.join('\n')}` };
        },
      };
    }
    const named = textToolNames(catalog.tools, catalog.ordered);
    const nameOf = new Map(named.map((t) => [t.tool, t]));
    const shown = [
      { name, tool: search, target: { server: '', tool: name } },
      ...named.filter((t) => eagerNames.has(t.tool.name)),
    ];
    const section = joinSections(
      '# Tools\n\nYou have access to these tools:',
      ...shown.map((t) => toolBlock(t, protocol, false)),
      protocolSection(protocol),
      deferredNote(name, deferred),
    );
    return {
      render: (c) => ({
        system: joinSections(c.system, PREAMBLE, section),
        messages: caseMessages(c),
        protocol,
        toolSearch: spec,
      }),
      expand(found) {
        const blocks = found.map((t) => nameOf.get(t)).filter((t) => t !== undefined);
        return {
          text: joinSections(
            `Found ${blocks.length} tool(s), callable from now on:`,
            ...blocks.map((t) => toolBlock(t, protocol, false)),
          ),
        };
      },
    };
  },
};

function keyOf(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}
