import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SchemaCacheFile } from '../src/catalog/schema-cache.js';
import { canonicalJson } from '../src/util/canonical-json.js';
import { ROOT, runCli } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/** A throwaway project: config + suite on the bundled excel server, so `schemas/` is written to a temp dir. */
function project(): { dir: string; config: string; cache: string } {
  const dir = tempDir('tg-schemas-');
  writeFileSync(
    join(dir, 'sheets.yaml'),
    `name: sheets
servers:
  excel: { builtin: excel }
cases:
  - id: meta
    prompt: Show me the sheets in sales.xlsx.
    expect: { calls: [{ tool: get_workbook_metadata, args: { filepath: [sales.xlsx] } }] }
`,
  );
  writeFileSync(
    join(dir, 'toolgauge.config.yaml'),
    'suites: [sheets.yaml]\nrenderers: [cached-schemas]\nproviders: [sim:oracle]\n',
  );
  return { dir, config: join(dir, 'toolgauge.config.yaml'), cache: join(dir, 'schemas', 'sheets.json') };
}

describe('toolgauge schemas refresh | diff (real CLI)', () => {
  it('refresh writes a content-hashed snapshot; diff is clean (0), then names drift and exits 1', async () => {
    const { config, cache } = project();

    // No snapshot yet: a usage error naming the file and the fix.
    const missing = await runCli(['schemas', 'diff', '-c', config]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /schemas\/sheets\.json: no schema cache for suite 'sheets'; run `toolgauge schemas refresh`/,
    );

    const refresh = await runCli(['schemas', 'refresh', '-c', config]);
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(refresh.stdout).toMatch(/^sheets: 25 tools → .*schemas\/sheets\.json$/m);
    expect(existsSync(cache)).toBe(true);
    const text = readFileSync(cache, 'utf8');
    const body = JSON.parse(text) as SchemaCacheFile;
    expect(body).toMatchObject({ format: 'toolgauge.schemas/1', suite: 'sheets' });
    expect(body.tools).toHaveLength(25);
    expect(body.tools.every((t) => t.server === 'excel')).toBe(true);
    // Content-hashed: the hash is the SHA-256 of the canonical tools, and nothing time-dependent is stored.
    expect(body.hash).toBe(createHash('sha256').update(canonicalJson(body.tools)).digest('hex'));
    expect(Object.keys(body).sort()).toEqual(['format', 'hash', 'suite', 'tools']);
    // The same server gives the same bytes as the committed snapshot of the bundled excel suite.
    const committed = JSON.parse(readFileSync(join(ROOT, 'schemas', 'excel.json'), 'utf8')) as SchemaCacheFile;
    expect(body.tools).toEqual(committed.tools);
    expect(body.hash).toBe(committed.hash);

    const clean = await runCli(['schemas', 'diff', '-c', config]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain('sheets: schema cache matches the live servers (25 tools)');

    // Drift: one tool's description edited, one removed from the cache, one the server does not have.
    const edited = structuredClone(body);
    const changed = edited.tools.find((t) => t.name === 'read_data_from_excel')!;
    changed.description = 'An older description';
    edited.tools = edited.tools.filter((t) => t.name !== 'create_chart');
    edited.tools.push({ name: 'retired_tool', inputSchema: { type: 'object' }, server: 'excel' });
    writeFileSync(cache, JSON.stringify(edited, null, 2));
    const drift = await runCli(['schemas', 'diff', '-c', config]);
    expect(drift.code, drift.stderr).toBe(1);
    expect(drift.stdout).toContain('sheets: DRIFT between the schema cache and the live servers');
    expect(drift.stdout).toContain(
      '  ~ excel/read_data_from_excel\n      description changed: "An older description" → "Read data from Excel',
    );
    expect(drift.stdout).toContain('  + excel/create_chart (on the server, not in the cache)');
    expect(drift.stdout).toContain('  - excel/retired_tool (in the cache, gone from the server)');
    expect(drift.stdout.match(/^ {2}[~+-] /gm)).toHaveLength(3);
  });

  it('the committed snapshots of the bundled suites match the live servers (what CI runs)', async () => {
    const res = await runCli(['schemas', 'diff']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain('excel: schema cache matches the live servers (25 tools)');
    expect(res.stdout).toContain('economist: schema cache matches the live servers (39 tools)');
    expect(res.stdout).toMatch(/coder: schema cache matches the live servers \(\d+ tools\)/);
  });
});
