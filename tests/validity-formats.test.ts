import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelFormat } from '../src/contracts/parse.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { markdownWrapped } from '../src/graders/markdown-wrapped.js';
import { noCall } from '../src/graders/no-call.js';
import { parseable } from '../src/graders/parseable.js';
import { ROOT } from './cli-helpers.js';
import { caseOf, transcriptOf } from './helpers/grader-fixtures.js';

/**
 * docs/validity.md's table of call formats is checked against the code: every example reply is parsed and graded as
 * the table says (what is extracted, and the verdicts of parseable, markdown-wrapped and no-call), and every model
 * family the parser names has a row.
 */
const TOOLS: ToolDef[] = [
  { name: 'get_weather', server: 'demo', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'get_time', server: 'demo', inputSchema: { type: 'object', properties: { zone: { type: 'string' } } } },
];

const FAMILIES: ModelFormat[] = [
  'function-tags',
  'mistral',
  'llama',
  'deepseek',
  'glm',
  'kimi',
  'harmony',
  'granite',
  'gemma',
  'phi',
  'olmo',
  'internlm',
  'xlam',
  'functionary',
  'command-r',
  'invoke-xml',
  'tool-named-xml',
  'openai-json',
  'apertus',
  'lfm2',
  'minicpm',
  'minimax',
  'name-json',
  'solar',
  'gigachat',
];

interface Row {
  via: string;
  writtenBy: string;
  reply: string;
  extracts: string;
  parseable: string;
  markdownWrapped: string;
  noCall: string;
}

/** A cell's text: `\|` unescaped, a code span's delimiters (and the spaces padding `` … ``) removed. */
function cell(raw: string): string {
  const text = raw.trim().replaceAll('\\|', '|');
  const ticks = /^`+/.exec(text)?.[0] ?? '';
  if (!ticks || !text.endsWith(ticks)) return text;
  const inner = text.slice(ticks.length, text.length - ticks.length);
  return ticks.length > 1 ? inner.slice(1, -1) : inner;
}

function tableRows(): Row[] {
  const doc = readFileSync(join(ROOT, 'docs', 'validity.md'), 'utf8');
  const start = doc.indexOf('<!-- formats-table -->');
  const end = doc.indexOf('<!-- /formats-table -->');
  expect(start).toBeGreaterThan(0);
  return doc
    .slice(start, end)
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| `via`'))
    .map((l) => {
      const cells = l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map(cell);
      expect(cells).toHaveLength(7);
      const [via, writtenBy, reply, extracts, p, m, n] = cells as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      return { via, writtenBy, reply, extracts, parseable: p, markdownWrapped: m, noCall: n };
    });
}

const rows = tableRows();
const verdict = (g: { pass: boolean } | null) => (g?.pass ? 'passes' : 'fails');

describe('docs/validity.md: the call formats table holds for the code', () => {
  it('has a row for every model family the parser names', () => {
    const named = new Set(rows.map((r) => r.via.replace(/ \(.*\)$/, '')));
    for (const family of FAMILIES) expect(named, family).toContain(family);
    expect(rows.length).toBeGreaterThanOrEqual(30);
  });

  it.each(rows.map((r) => [`${r.via}: ${r.writtenBy}`, r] as const))('%s', (_label, row) => {
    const text = row.reply.replaceAll('⏎', '\n');
    const transcript = transcriptOf([{ text }], 'xml-tags', TOOLS);
    const calls = transcript.turns[0]?.parse.calls ?? [];
    expect(calls.map((c) => `${c.name} ${JSON.stringify(c.args)}`).join('; ')).toBe(row.extracts);
    const first = calls[0];
    expect(first && (first.inner ? `${first.via} (${first.inner})` : first.via)).toBe(row.via);
    const expecting = caseOf({ calls: calls.map((c) => ({ tool: c.name, args: {} })) });
    const input = { transcript, protocol: 'xml-tags' as const, tools: TOOLS };
    expect(verdict(parseable.grade({ ...input, case: expecting }))).toBe(row.parseable);
    expect(verdict(markdownWrapped.grade({ ...input, case: expecting }))).toBe(row.markdownWrapped);
    expect(verdict(noCall.grade({ ...input, case: caseOf({ no_call: true }) }))).toBe(row.noCall);
  });
});
