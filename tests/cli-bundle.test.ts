import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { BIN, FIXTURES, finished, ROOT, readRecords, runDirFrom } from './cli-helpers.js';
import { SOURCE_CLI_WORDS } from './run-cli-anywhere.js';

// The command line users run is the esbuild bundle (`npm run build`, run by `npm ci` through `prepare`; the tests'
// global setup rebuilds it from the current sources when they changed, and every CLI test spawns it). These tests
// drive the built artefacts themselves, and check them against the sources run through tsx.
const BUNDLE = join(ROOT, 'dist', 'cli', 'main.js');

function runBin(args: string[], cwd: string) {
  return finished(
    spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

let dir: string;
beforeAll(() => {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\` (npm ci runs it)`);
  dir = mkdtempSync(join(tmpdir(), 'tg-bundle-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bundled CLI', () => {
  it('runs an eval with the bundled MCP servers and records the same cases and token counts as the sources', async () => {
    const args = ['eval', '-c', join(FIXTURES, 'mini.config.yaml'), '-r', 'full-details', '-p', 'sim:oracle', '-q'];
    const built = await runBin([...args, '--out', join(dir, 'built')], ROOT);
    expect(built.stderr).toContain('gate: passed');
    expect(built.code).toBe(0);
    const [node, ...words] = SOURCE_CLI_WORDS as [string, ...string[]];
    const sources = await finished(
      spawn(node, [...words, ...args, '--out', join(dir, 'sources')], {
        cwd: ROOT,
        env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    expect(sources.code).toBe(0);
    const cases = (d: string) =>
      readRecords(join(d, 'run.jsonl'))
        .filter((r): r is CaseRecord => r.type === 'case')
        .map((r) => [r.key, r.promptTokens, r.grades.map((g) => g.pass)])
        .sort();
    const fromBundle = cases(runDirFrom(built.stderr));
    expect(fromBundle.length).toBeGreaterThan(0);
    for (const [, tokens] of fromBundle) expect(tokens).toBeGreaterThan(100);
    expect(fromBundle).toEqual(cases(runDirFrom(sources.stderr)));
  });

  it('serves a bundled MCP server over stdio to the real SDK client', async () => {
    const client = new Client({ name: 'bundle-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', 'mcp', 'coder'] }));
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(14);
    } finally {
      await client.close();
    }
  });

  it('prints a located one-line error for a bad config and exits 2', async () => {
    const r = await runBin(['eval', '-c', join(FIXTURES, 'bad', 'unknown-renderer.config.yaml')], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown-renderer\.config\.yaml:\d+:\d+: /);
  });
});
