import { stringify } from 'yaml';
import type { ServerSpec } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { newAjv } from '../graders/schema-check.js';
import { catalogExamples, changesState, type ToolExample, toolExample } from './tool-example.js';

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

/** A tool whose name says it deletes: its case runs after every other, so the others still find what it removes. */
const DELETES = /delete|remove|drop|destroy|purge|clear|erase|unlink|(^|[_-])rm([_-]|$)/i;

/**
 * When a tool's case runs in the first eval, which runs one case at a time in suite order: tools that create or
 * overwrite first (what they write, the reads then find), then the ones that only read (or say nothing), then the
 * ones that change what exists (edit, move), then deletions.
 */
function runOrder(t: ToolDef): number {
  if (DELETES.test(t.name)) return 3;
  if (!changesState(t)) return 1;
  const a = t.annotations ?? {};
  return a.destructiveHint === true && a.idempotentHint !== true ? 2 : 0;
}

/** What starterSuite wrote: the suite's text, and the tools left without a case (no valid example could be made). */
export interface StarterSuite {
  text: string;
  /** Cases written for the tools, in suite order. */
  cases: number;
  /** Tools whose case is commented out, with why. */
  skipped: { tool: string; reason: string }[];
}

/** YAML of one value on one line (flow style), as it would be written in the suite by hand. */
const flow = (value: unknown) =>
  stringify(value, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim();

/**
 * The starter suite: one case skeleton per tool, its expected call holding the tool's required parameters with example
 * values its input schema accepts (so `sim:oracle` passes it as it stands and the wiring is proven), and TODO marks
 * where a person must write the prompt and check the expectation. Cases are ordered so that the first eval's writes
 * come before its reads ({@link runOrder}). A tool no valid example could be made for gets its case commented out,
 * for a person to write: a value its schema refuses would fail the suite's own first gate.
 */
export function starterSuite(
  name: string,
  serverName: string,
  spec: ServerSpec,
  tools: readonly ToolDef[],
): StarterSuite {
  const taken = new Set<string>();
  const lines: string[] = [
    `# Starter suite for the MCP server '${serverName}', written by \`toolgauge init\`: one case per tool (${tools.length}).`,
    '# Each case is a skeleton. Replace every TODO: write the prompt a user would send, then set the expected',
    "# arguments (filled with example values of the tool's required parameters) to what that prompt asks for.",
    '# Allowed values follow BFCL\'s rules: a list per parameter, "" in it = may be omitted; `free: [param]` checks a',
    '# free-text parameter against the schema only. Remove the `todo` tag from a case once it is written.',
    '# Cases that write come before those that read, deletions last: the first eval runs them one at a time in this order.',
    '# Every path here (a server command\'s files) is relative to this file. Format: README.md "Configuration and suites".',
    stringify({ name }).trim(),
    'servers:',
    `  ${stringify({ [serverName]: spec }, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 })
      .trim()
      .replace(/^\{ ?|\s?\}$/g, '')}`,
    'cases:',
  ];
  const skipped: StarterSuite['skipped'] = [];
  let cases = 0;
  const ordered = tools
    .map((tool, i) => ({ tool, i }))
    .sort((a, b) => runOrder(a.tool) - runOrder(b.tool) || a.i - b.i);
  const ajv = newAjv();
  const shared = catalogExamples(tools);
  for (const { tool } of ordered) {
    const example = toolExample(tool, ajv, shared);
    const about = firstSentence(tool.description);
    lines.push(`  # TODO: ${tool.name}${about ? ` — ${about.replace(/\n/g, ' ')}` : ''}`);
    if (changesState(tool)) {
      lines.push('  # This tool changes state (its annotations say so): run the suite against a test instance.');
    }
    const caseLines = caseSkeleton(caseId(tool.name, taken), tool.name, example);
    if (example.ok) {
      lines.push(...caseLines);
      cases++;
    } else {
      skipped.push({ tool: tool.name, reason: example.reason });
      lines.push(
        `  # No example its input schema accepts could be made (${oneLine(example.reason)}): write the arguments, then`,
        '  # uncomment the case.',
        ...caseLines.map((l) => `  #${l.slice(1)}`),
      );
    }
  }
  if (cases === 0) {
    // a suite needs a case: one that expects no call holds the place (sim:oracle passes it) until one is written
    lines.push(
      '  # TODO: no tool got an example its schema accepts; this case (a question no tool answers) holds the place.',
      '  - id: no-tool-needed',
      `    tags: [${TODO_TAG}]`,
      '    prompt: "TODO: a question none of the tools is for, e.g. What is the capital of France?"',
      '    expect: { no_call: true }',
    );
  }
  return { text: `${lines.join('\n')}\n`, cases, skipped };
}

/** One case's lines: id, the todo tag, a prompt to write, the expected call with the example's values. */
function caseSkeleton(id: string, tool: string, example: ToolExample): string[] {
  const lines = [
    `  - id: ${flow(id)}`,
    `    tags: [${TODO_TAG}]`,
    `    prompt: ${flow(`TODO: what a user asks that needs ${tool}`)}`,
    '    expect:',
    '      calls:',
    `        - tool: ${flow(tool)}`,
  ];
  const entries = example.ok ? Object.entries(example.expected) : [];
  if (!example.ok) lines.push('          args: {}  # TODO: each required parameter with a list of allowed values');
  else if (entries.length === 0) lines.push('          args: {}  # TODO: the tool has no required parameter');
  else {
    lines.push("          args:  # TODO: the values this case's prompt asks for (example values from the schema)");
    for (const [param, allowed] of entries) lines.push(`            ${flow(param)}: ${flow(allowed)}`);
  }
  return lines;
}

/** A reason on one line, without characters that would end a YAML comment's line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').slice(0, 160);
