import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runDirFrom } from './cli-helpers.js';
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
const MEMORY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

let httpServer: ServedMcp | undefined;
afterAll(() => httpServer?.stop());

/** "N of M tool calls returned errors" in init's output, as numbers. */
function toolErrors(text: string): { errors: number; calls: number } {
  const m = /(\d+) of (\d+) tool calls returned errors/.exec(text);
  if (!m) throw new Error(`no tool-error count in:\n${text}`);
  return { errors: Number(m[1]), calls: Number(m[2]) };
}

/** The tool errors init's closing lines quote (`  tool: message`, before "(edit the arguments"). */
function quotedToolErrors(stdout: string): string[] {
  return /\n((?: {2}[\w-]+: [^\n]*\n)+) {2}\(edit the arguments/.exec(stdout)?.[1]?.trimEnd().split('\n') ?? [];
}

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
  return { dir, text, stdout: res.stdout };
}

describe('toolgauge init', () => {
  it('writes a starter for the bundled excel server started over stdio by `serve mcp excel`', async () => {
    const { text, stdout } = await initAndEval(['--server', `${CLI} serve mcp excel`], 'excel', 25);
    // the examples other tools' descriptions give (sheet "Sheet1") and cell names (A1) fill the parameters whose own
    // descriptions give none: the wiring of the bundled server is shown to work (was: 26 of 50 calls erring)
    expect(stdout).toContain('The wiring works: the server answered, though');
    expect(text).toContain('sheet_name: [Sheet1]');
    // three different tool errors quoted (was: one example call's error once per renderer)
    const quoted = quotedToolErrors(stdout);
    expect(quoted, stdout).toHaveLength(3);
    expect(new Set(quoted).size, stdout).toBe(3);
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
    // writes come before reads, moves and edits after them; a folder tool's path is a folder
    const order = [...text.matchAll(/^ {2}- id: (\S+)/gm)].map((m) => m[1]);
    expect(order.indexOf('write_file')).toBeLessThan(order.indexOf('read_text_file'));
    expect(order.indexOf('read_text_file')).toBeLessThan(order.indexOf('move_file'));
    expect(text).toMatch(/- tool: list_directory\n.*\n\s+path: \[\.\]\n/);
    // the tool errors are counted, and few: the first eval runs one case at a time, reads after the writes
    const { errors, calls } = toolErrors(res.stdout);
    expect(calls).toBe(28);
    expect(errors * 4).toBeLessThanOrEqual(calls);
    expect(res.stdout).toContain(`The wiring works: the server answered, though ${errors} of 28 tool calls`);
    const again = await runCli(['eval', '-c', join(base, 'project', 'toolgauge.config.yaml'), '-q'], tmpdir());
    expect(again.code).toBe(0);
  }, 120_000);

  it('server-memory: nested example arguments its schema accepts; most calls erring is counted, never "works"', async () => {
    const dir = tempDir('tg-init-memory-');
    // the knowledge graph in a folder that does not exist: the six tools that save fail, the three that read do not
    const graph = join(dir, 'missing', 'graph.jsonl');
    const res = await runCli(['init', '--server', `env MEMORY_FILE_PATH=${graph} node ${MEMORY}`], dir);
    // an array of strings inside an array of objects, in the allowed-value form: sim:oracle calls with valid values
    const text = readFileSync(join(dir, 'suites', 'memory.yaml'), 'utf8');
    expect(text).toContain('observations: [[example observation]]');
    expect(res.stderr).toContain('gate: passed');
    expect(res.code).toBe(0);
    expect(toolErrors(res.stdout)).toEqual({ errors: 12, calls: 18 });
    expect(res.stdout).toContain('12 of 18 tool calls returned errors: the wiring is not proven');
    expect(res.stdout).not.toContain('The wiring works');
    expect(res.stdout).toMatch(/^ {2}create_entities: ENOENT: no such file or directory/m);
    expect(res.stdout).toMatch(/Next steps:\n {2}1\. Write the cases/);
    // init's eval is quiet: the verdict and the matrix, not the rest of the summary
    expect(res.stdout).not.toContain('## Strategies per provider');
    // summary.md counts them too, and quotes the first few as code
    const summary = readFileSync(join(runDirFrom(res.stderr, dir), 'summary.md'), 'utf8');
    expect(summary).toContain('## Strategies per provider');
    expect(summary).toContain('12 of 18 tool calls returned errors');
    expect(summary).toMatch(
      /## First tool errors \(5 of 12\)\n\n- `memory\/create_entities\|full-details\|sim:oracle\|0` `create_entities`: `ENOENT: /,
    );
  }, 60_000);

  it("the workflow installs toolgauge as the project has it: its devDependencies, else from toolgauge's repository", async () => {
    const bare = tempDir('tg-init-ci-');
    const project = tempDir('tg-init-ci-project-');
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ devDependencies: { toolgauge: 'github:x/toolgauge' } }),
    );
    writeFileSync(join(project, 'package-lock.json'), '{}');
    const [a, b] = await Promise.all([
      runCli(['init', '--builtin', 'economist', '--no-eval'], bare),
      runCli(['init', '--builtin', 'economist', '--no-eval'], project),
    ]);
    const steps = (dir: string) =>
      (
        parse(readFileSync(join(dir, '.github/workflows/toolgauge.yml'), 'utf8')) as {
          jobs: { toolgauge: { steps: { run?: string; uses?: string }[] } };
        }
      ).jobs.toolgauge.steps;
    // not published on npm: from its repository, the address left for the user to fill in, and said so
    expect(steps(bare).map((s) => s.run ?? s.uses)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm install --no-save github:<owner>/toolgauge',
      './node_modules/toolgauge',
    ]);
    expect(a.stdout).toMatch(/5\. CI: .*installs toolgauge from its repository: replace <owner> there/);
    // a project that lists toolgauge installs what it lists
    expect(steps(project).map((s) => s.run ?? s.uses)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm ci',
      './node_modules/toolgauge',
    ]);
    expect(b.stdout).toMatch(/5\. CI: .*\(npm ci, then toolgauge's action/);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
  }, 60_000);

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
    // a URL where a web server answers with a long HTML error page: one line with the status, not the page
    const page = `<!DOCTYPE html>\n<html>\n<body>\n${'<p>Not an MCP server.</p>\n'.repeat(4000)}</body>\n</html>\n`;
    const web = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end(page));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/mcp`;
      const html = await runCli(['init', '--url', url, '--no-eval'], tempDir('tg-init-'));
      expect(html.code).toBe(2);
      const lines = html.stderr.split('\n').filter((l) => l.trim());
      expect(lines, html.stderr.slice(0, 500)).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^toolgauge: MCP server '\S+' failed to start: HTTP 404: Streamable HTTP error: .*<!DOCTYPE html> <html>/,
      );
      expect(lines[0]?.length).toBeLessThan(500);
    } finally {
      web.closeAllConnections();
      await new Promise<void>((resolve) => web.close(() => resolve()));
    }
  }, 60_000);
});
