import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { TokenCounter } from '../src/util/token-counter.js';
import { countTokens } from '../src/util/tokens.js';
import { FIXTURES, finished, ROOT, readRecords, runDirFrom, startCli } from './cli-helpers.js';

// The command line users run is the esbuild bundle (`npm run build`, run by `npm ci` through `prepare`), not the
// sources the other CLI tests run through tsx: these tests drive the built artefacts themselves.
const BIN = join(ROOT, 'bin', 'toolgauge.js');
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
    const sources = await finished(startCli([...args, '--out', join(dir, 'sources')]));
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

describe('the token worker', () => {
  const texts = [
    '',
    'hello world',
    '帮我读取 test.xlsx 文件的 Sheet1 工作表的内容',
    'a <|endoftext|> b',
    'x'.repeat(5000),
  ];

  for (const file of [
    join(ROOT, 'dist', 'cli', 'token-worker.js'),
    join(ROOT, 'dist', 'src', 'util', 'token-worker.js'),
  ]) {
    it(`counts exactly as the main thread does (${file.slice(ROOT.length + 1)})`, async () => {
      const counter = new TokenCounter(pathToFileURL(file), 256, null);
      try {
        expect(counter.threaded).toBe(true);
        // Many texts in one burst travel as one batch; every answer goes back to its own caller.
        const many = Array.from({ length: 200 }, (_, i) => `${texts[i % texts.length]} ${i}`);
        const counted = await Promise.all([...texts, ...many].map((t) => counter.count(t)));
        expect(counted).toEqual([...texts, ...many].map(countTokens));
        expect(counter.threaded).toBe(true);
      } finally {
        await counter.close();
      }
      expect(counter.threaded).toBe(false);
      expect(await counter.count('hello world')).toBe(2);
    });
  }

  it('hands counting over to the main thread after enough texts, answering what the worker was still asked', async () => {
    const counter = new TokenCounter(pathToFileURL(join(ROOT, 'dist', 'src', 'util', 'token-worker.js')), 10, null);
    const early = Array.from({ length: 8 }, (_, i) => counter.count(`early text ${i}`));
    expect(counter.threaded).toBe(true);
    const late = Array.from({ length: 8 }, (_, i) => counter.count(`late text ${i}`));
    expect(counter.threaded).toBe(false);
    expect(await Promise.all([...early, ...late])).toEqual([
      ...Array.from({ length: 8 }, (_, i) => countTokens(`early text ${i}`)),
      ...Array.from({ length: 8 }, (_, i) => countTokens(`late text ${i}`)),
    ]);
    await counter.close();
  });

  it('counts prefetched prompts in the worker and keeps it for the whole run (no hand-over)', async () => {
    const counter = new TokenCounter(pathToFileURL(join(ROOT, 'dist', 'src', 'util', 'token-worker.js')), 10, null);
    try {
      const prompts = Array.from({ length: 3000 }, (_, i) => `What is the weather in city ${i}?`);
      counter.prefetch(prompts);
      const counted = await Promise.all(prompts.map((p) => counter.count(p)));
      expect(counted).toEqual(prompts.map(countTokens));
      expect(counter.threaded).toBe(true);
      // Once answered, a prefetched prompt is a plain number (no promise, no message).
      expect(counter.count(prompts[7] as string)).toBe(countTokens(prompts[7] as string));
      // Texts that were not prefetched still go to the worker.
      expect(await counter.count('not prefetched at all')).toBe(countTokens('not prefetched at all'));
      expect(counter.threaded).toBe(true);
    } finally {
      await counter.close();
    }
  });

  it('falls back to the main thread when the worker cannot start', async () => {
    const counter = new TokenCounter(pathToFileURL(join(dir, 'no-such-worker.js')), 256, null);
    expect(await counter.count('hello world')).toBe(2);
    expect(counter.threaded).toBe(false);
  });
});
