import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './cli-helpers.js';
import { type ServedMcp, serveMcpHttp } from './helpers/serve-mcp-http.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { CLI_WORDS, runCliAnywhere as runCli } from './run-cli-anywhere.js';

const tempDir = useTempDirs();

/**
 * `toolgauge init` through the real CLI against real MCP servers: the bundled excel server spawned over stdio and
 * dialled over HTTP (`serve mcp excel`), and a third-party server from npm (@modelcontextprotocol/server-filesystem).
 * It writes a config, a suite, the schema cache and a workflow, runs a first eval with sim:oracle, and the generated
 * suite then passes `eval` run from another folder.
 */
const CLI = CLI_WORDS.map((w) => JSON.stringify(w)).join(' ');
const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let httpServer: ServedMcp | undefined;
afterAll(() => httpServer?.stop());

async function startHttpExcel(): Promise<string> {
  httpServer = await serveMcpHttp('excel');
  return httpServer.url;
}

/** Runs init in a fresh folder; checks the files it writes and that eval of the result passes from elsewhere. */
async function initAndEval(args: string[], name: string, tools: number) {
  const dir = tempDir('tg-init-');
  const res = await runCli(['init', ...args], dir);
  expect(res.stderr + res.stdout).toContain(`lists ${tools} tools`);
  expect(res.stderr).toContain('gate: passed');
  expect(res.code).toBe(0);
  const suiteFile = join(dir, 'suites', `${name}.yaml`);
  for (const f of ['toolgauge.config.yaml', `schemas/${name}.json`, '.github/workflows/toolgauge.yml']) {
    expect(existsSync(join(dir, f)), f).toBe(true);
  }
  const text = readFileSync(suiteFile, 'utf8');
  const suite = parse(text) as { name: string; cases: { id: string; tags: string[]; prompt: string }[] };
  expect(suite.name).toBe(name);
  expect(suite.cases).toHaveLength(tools);
  for (const c of suite.cases) {
    expect(c.tags).toEqual(['todo']);
    expect(c.prompt).toMatch(/^TODO/);
  }
  const config = readFileSync(join(dir, 'toolgauge.config.yaml'), 'utf8');
  expect(config).toContain(`suites/${name}.yaml`);
  expect(config).not.toMatch(/sk-|api_?key:/i);
  const workflow = parse(readFileSync(join(dir, '.github/workflows/toolgauge.yml'), 'utf8')) as {
    jobs: { toolgauge: { steps: { uses?: string; with?: Record<string, string> }[] } };
  };
  expect(workflow.jobs.toolgauge.steps.some((s) => s.uses === './node_modules/toolgauge')).toBe(true);

  // eval of the generated config from another folder: every path in it is relative to the config file
  const elsewhere = tempDir('tg-init-run-');
  const again = await runCli(['eval', '-c', join(dir, 'toolgauge.config.yaml'), '-q'], elsewhere);
  expect(again.stderr).toContain('gate: passed');
  expect(again.code).toBe(0);
  // the schema cache written is the one `schemas diff` compares with
  const diff = await runCli(['schemas', 'diff', '-c', join(dir, 'toolgauge.config.yaml')], elsewhere);
  expect(diff.stdout).toContain(`${name}: schema cache matches the live servers (${tools} tools)`);
  expect(diff.code).toBe(0);
  return { dir, text };
}

describe('toolgauge init', () => {
  it('writes a starter for the bundled excel server started over stdio by `serve mcp excel`', async () => {
    const { text } = await initAndEval(['--server', `${CLI} serve mcp excel`], 'excel', 25);
    // required parameters filled from the schema, marked for a person to write
    expect(text).toMatch(/- tool: read_data_from_excel\n\s+args: +# TODO/);
    expect(text).toContain('filepath: [');
  }, 120_000);

  it.each(['economist', 'coder'])(
    'writes a starter for the bundled %s server (--builtin) that passes as written',
    async (name) => {
      // as many cases as the server lists tools (its committed snapshot)
      const cache = JSON.parse(readFileSync(join(ROOT, 'schemas', `${name}.json`), 'utf8')) as { tools: unknown[] };
      await initAndEval(['--builtin', name], name, cache.tools.length);
    },
    120_000,
  );

  it('writes a starter for `serve mcp excel --http`, dialled by URL', async () => {
    const url = await startHttpExcel();
    const { text } = await initAndEval(['--url', url, '--name', 'excel'], 'excel', 25);
    expect(text).toContain(`url: ${url}`);
  }, 120_000);

  it('writes a starter for a third-party stdio server from npm, its folder argument relative to the suite', async () => {
    const base = tempDir('tg-init-fs-');
    mkdirSync(join(base, 'sandbox'));
    // init runs in `base`; the server's `sandbox` argument is rewritten relative to the suite's folder
    const res = await runCli(['init', '--server', `node ${FILESYSTEM} sandbox`, '--dir', 'project'], base);
    expect(res.stderr).toContain('gate: passed');
    expect(res.code).toBe(0);
    const text = readFileSync(join(base, 'project', 'suites', 'filesystem.yaml'), 'utf8');
    expect(text).toContain('../../sandbox');
    expect(text).toMatch(/This tool changes state/);
    const again = await runCli(['eval', '-c', join(base, 'project', 'toolgauge.config.yaml'), '-q'], tmpdir());
    expect(again.code).toBe(0);
  }, 120_000);

  it('refuses to overwrite, and a server that fails to start, with exit 2 and one line', async () => {
    const dir = tempDir('tg-init-bad-');
    const first = await runCli(['init', '--builtin', 'economist', '--no-eval'], dir);
    expect(first.code).toBe(0);
    const again = await runCli(['init', '--builtin', 'economist', '--no-eval'], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exist.*--force/);
    const broken = await runCli(['init', '--server', 'node -e "process.exit(1)"'], tempDir('tg-init-'));
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/failed to start/);
    const none = await runCli(['init'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('exactly one of --server');
  }, 60_000);
});
