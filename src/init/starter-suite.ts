import { stringify } from 'yaml';
import type { ServerSpec } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { exampleArgs } from './example-value.js';

/** The tag every generated case carries until a person has written it (`eval --tag todo` runs only those). */
export const TODO_TAG = 'todo';

/** A case id from a tool name: letters, digits, `_ . : -` (the suite schema's rule), unique in the suite. */
function caseId(tool: string, taken: Set<string>): string {
  const base = tool.replace(/[^\w.:-]+/g, '-').replace(/^-+|-+$/g, '') || 'tool';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

function firstSentence(text: string | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const s = end >= 0 ? flat.slice(0, end + 1) : flat;
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
}

const changesState = (t: ToolDef) =>
  t.annotations?.destructiveHint === true || (t.annotations !== undefined && t.annotations.readOnlyHint === false);

/** YAML of one value on one line (flow style), as it would be written in the suite by hand. */
const flow = (value: unknown) =>
  stringify(value, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim();

/**
 * The starter suite: one case skeleton per tool, its expected call holding the tool's required parameters with example
 * values from the schema (so `sim:oracle` passes it as it stands and the wiring is proven), and TODO marks where a
 * person must write the prompt and check the expectation.
 */
export function starterSuite(name: string, serverName: string, spec: ServerSpec, tools: readonly ToolDef[]): string {
  const taken = new Set<string>();
  const lines: string[] = [
    `# Starter suite for the MCP server '${serverName}', written by \`toolgauge init\`: one case per tool (${tools.length}).`,
    '# Each case is a skeleton. Replace every TODO: write the prompt a user would send, then set the expected',
    "# arguments (filled with example values of the tool's required parameters) to what that prompt asks for.",
    '# Allowed values follow BFCL\'s rules: a list per parameter, "" in it = may be omitted; `free: [param]` checks a',
    '# free-text parameter against the schema only. Remove the `todo` tag from a case once it is written.',
    '# Every path here (a server command\'s files) is relative to this file. Format: README.md "Configuration and suites".',
    stringify({ name }).trim(),
    'servers:',
    `  ${stringify({ [serverName]: spec }, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 })
      .trim()
      .replace(/^\{ ?|\s?\}$/g, '')}`,
    'cases:',
  ];
  for (const tool of tools) {
    const args = exampleArgs(tool.inputSchema);
    const id = caseId(tool.name, taken);
    const about = firstSentence(tool.description);
    lines.push(`  # TODO: ${tool.name}${about ? ` — ${about.replace(/\n/g, ' ')}` : ''}`);
    if (changesState(tool)) {
      lines.push('  # This tool changes state (its annotations say so): run the suite against a test instance.');
    }
    lines.push(`  - id: ${flow(id)}`);
    lines.push(`    tags: [${TODO_TAG}]`);
    lines.push(`    prompt: ${flow(`TODO: what a user asks that needs ${tool.name}`)}`);
    lines.push('    expect:');
    lines.push('      calls:');
    lines.push(`        - tool: ${flow(tool.name)}`);
    const entries = Object.entries(args);
    if (entries.length === 0) lines.push('          args: {}  # TODO: the tool has no required parameter');
    else {
      lines.push("          args:  # TODO: the values this case's prompt asks for (example values from the schema)");
      for (const [param, value] of entries) lines.push(`            ${flow(param)}: ${flow([value])}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
