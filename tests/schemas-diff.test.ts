import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolChanges } from '../src/catalog/schema-diff.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { runCliAnywhere } from './run-cli-anywhere.js';

const tempDir = useTempDirs();

interface CacheFile {
  tools: ToolDef[];
}
type Props = Record<string, Record<string, unknown>>;

/**
 * `schemas diff` says what changed in each tool, not only which names differ: a snapshot of the bundled excel server
 * is written with `schemas refresh`, edited to stand for an older server, and diffed against the live one.
 */
describe('toolgauge schemas diff', () => {
  it('names each change of each tool: description, parameter added or removed, type, enum, required', async () => {
    const dir = tempDir('tg-schemas-');
    writeFileSync(join(dir, 'toolgauge.config.yaml'), 'suites: [excel]\nproviders: [sim:oracle]\n');
    const refresh = await runCliAnywhere(['schemas', 'refresh'], dir);
    expect(refresh.stdout).toMatch(/excel: 25 tools → schemas\/excel\.json/);
    const same = await runCliAnywhere(['schemas', 'diff'], dir);
    expect(same.stdout).toContain('excel: schema cache matches the live servers (25 tools)');
    expect(same.code).toBe(0);

    // the cache as an older server would have had it
    const file = join(dir, 'schemas', 'excel.json');
    const cache = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    const tool = (name: string) => cache.tools.find((t) => t.name === name)!;
    const props = (name: string) => tool(name).inputSchema.properties as Props;
    const read = tool('read_data_from_excel');
    read.description = 'Read data from an Excel worksheet.';
    delete props('read_data_from_excel').preview_only; // added since
    props('read_data_from_excel').legacy_mode = { type: 'boolean' }; // removed since
    props('read_data_from_excel').start_cell!.type = 'integer'; // type changed
    read.inputSchema.required = ['filepath']; // sheet_name became required
    const chart = props('create_chart').chart_type!;
    chart.enum = [...(chart.enum as string[]).slice(1), 'radar']; // one value added, one removed since
    cache.tools = cache.tools.filter((t) => t.name !== 'apply_formula');
    cache.tools.push({ ...read, name: 'old_tool' });
    writeFileSync(file, JSON.stringify(cache, null, 2));

    const res = await runCliAnywhere(['schemas', 'diff'], dir);
    expect(res.code).toBe(1);
    const out = res.stdout;
    expect(out).toContain('excel: DRIFT between the schema cache and the live servers');
    expect(out).toContain('  + excel/apply_formula (on the server, not in the cache)');
    expect(out).toContain('  - excel/old_tool (in the cache, gone from the server)');
    const block = out.slice(out.indexOf('  ~ excel/read_data_from_excel'));
    expect(block).toMatch(
      /description changed: "Read data from an Excel worksheet\." → "Read data from Excel worksheet/,
    );
    expect(block).toContain('parameter added: preview_only (boolean, optional)');
    expect(block).toContain('parameter removed: legacy_mode');
    expect(block).toContain('parameter start_cell: type integer → string');
    expect(block).toContain('parameter sheet_name: now required');
    expect(out).toMatch(/ {2}~ excel\/create_chart\n {6}parameter chart_type: enum added "\w+"; removed "radar"/);
    expect(out).toContain('Run `toolgauge schemas refresh` and commit the result to accept the change.');
  }, 60_000);
});

describe('toolChanges', () => {
  const base: ToolDef = {
    name: 't',
    server: 's',
    description: 'd',
    inputSchema: {
      type: 'object',
      properties: { opts: { type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'] } } } },
    },
  };
  it('follows nested objects and array items, and says when an enum appears or goes', () => {
    const after: ToolDef = {
      ...base,
      inputSchema: {
        type: 'object',
        properties: {
          opts: { type: 'object', properties: { mode: { type: 'string' }, level: { type: 'integer' } } },
          rows: { type: 'array', items: { type: 'string', minLength: 1 } },
        },
        additionalProperties: false,
      },
    };
    expect(toolChanges(base, after)).toEqual([
      'parameter added: opts.level (integer, optional)',
      'parameter opts.mode: enum removed (any value now)',
      'parameter added: rows (array of string, optional)',
      'input schema: additionalProperties changed',
    ]);
  });
  it('says "definition changed" for a change it has no words for', () => {
    expect(toolChanges(base, { ...base, server: 's', extra: 1 } as ToolDef)).toEqual(['definition changed']);
  });
});
