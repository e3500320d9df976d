import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { runCliAnywhere } from './run-cli-anywhere.js';
import { type ServedLlm, serveLlmProcess } from './serve-llm-process.js';

const tempDir = useTempDirs();

/**
 * Provider options on the command line (`--provider-option KEY=VALUE`, checked by the providers' own option schema)
 * and config composition: a config outside the checkout that names bundled suites, a config with provider options
 * only combined with `--suite`, every path of a config relative to the config file. All through the real CLI, run
 * from a folder outside the checkout, against the real `serve llm` wire mock.
 */
let llm: ServedLlm;
beforeAll(async () => {
  llm = await serveLlmProcess('oracle');
}, 60_000);
afterAll(() => llm?.stop());

function folder(files: Record<string, string>): string {
  const dir = tempDir('tg-popt-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('--provider-option', () => {
  it('runs openai-compatible against serve llm with baseURL and temperature given on the command line', async () => {
    const dir = folder({ 'empty.yaml': 'renderers: [full-details]\n' });
    const res = await runCliAnywhere(
      [
        'eval',
        '-c',
        'empty.yaml',
        '--suite',
        'economist',
        '--provider',
        'openai-compatible:qwen2.5',
        '--provider-option',
        `baseURL=${llm.url}/v1`,
        '--provider-option',
        'temperature=0',
        '--provider-option',
        'timeoutMs=30000',
        '-q',
      ],
      dir,
    );
    expect(res.stderr).toContain('gate: passed');
    expect(res.code).toBe(0);
  }, 60_000);

  it('needs no config file when --suite and --provider are given; without them the missing file is named', async () => {
    const dir = folder({});
    const res = await runCliAnywhere(
      [
        'eval',
        '--suite',
        'excel',
        '--provider',
        'openai-compatible:qwen2.5',
        '--provider-option',
        `baseURL=${llm.url}/v1`,
        '--renderer',
        'native-functions',
        '-q',
      ],
      dir,
    );
    expect(res.stderr).toContain('gate: passed');
    expect(res.stderr).toMatch(/→ reports\//);
    expect(res.code).toBe(0);
    const none = await runCliAnywhere(['eval', '--suite', 'excel'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no provider to run: no --provider given, and there is no config file \(looked for /);
  }, 60_000);

  it.each([
    [
      ['--provider-option', 'tempature=0'],
      /--provider-option tempature=0: unknown option 'tempature'.*valid options: baseURL, temperature/,
    ],
    [
      ['--provider-option', 'temperature=hot'],
      /--provider-option temperature=hot: bad value for 'temperature'.*expected number/,
    ],
    [['--provider-option', 'temperature=9'], /--provider-option temperature=9: bad value for 'temperature'.*<=2/],
    [['--provider-option', 'baseURL=not a url'], /--provider-option baseURL=not a url: bad value for 'baseURL'/],
    [['--provider-option', 'temperature'], /--provider-option temperature: expected KEY=VALUE/],
  ])(
    'refuses %j with exit 2 and one line naming it',
    async (flags, message) => {
      const dir = folder({ 'c.yaml': 'suites: [excel]\n' });
      const res = await runCliAnywhere(['eval', '-c', 'c.yaml', '--provider', 'openai-compatible:q', ...flags], dir);
      expect(res.code).toBe(2);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(message);
    },
    30_000,
  );

  it('checks simulated providers by their own options, and a required option left out is named', async () => {
    const dir = folder({ 'c.yaml': 'suites: [excel]\n' });
    const sim = await runCliAnywhere(['eval', '-c', 'c.yaml', '-p', 'sim:oracle', '--provider-option', 'seed=3'], dir);
    expect(sim.code).toBe(2);
    expect(sim.stderr).toMatch(/unknown option 'seed' for provider sim:oracle; valid options: honorStop, latencyMs/);
    const noUrl = await runCliAnywhere(
      ['eval', '-c', 'c.yaml', '-p', 'openai-compatible:q', '--provider-option', 'temperature=0'],
      dir,
    );
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/--provider openai-compatible:q: .*baseURL is required/);
  }, 30_000);
});

describe('config composition', () => {
  it('a config in another folder names bundled suites; its out: is relative to it', async () => {
    const dir = folder({
      'toolgauge.config.yaml':
        'suites: [excel, economist]\nrenderers: [full-details]\nproviders: [sim:oracle]\nout: runs\n',
    });
    const res = await runCliAnywhere(['eval', '-q'], dir);
    expect(res.stderr).toContain('gate: passed');
    expect(res.stderr).toMatch(/→ runs\//);
    expect(res.code).toBe(0);
  }, 60_000);

  it('every path of a config is relative to it: suites, out and plugin modules (the baseline: tests/baseline-path)', async () => {
    const dir = folder({});
    mkdirSync(join(dir, 'project', 'plugins'), { recursive: true });
    writeFileSync(
      join(dir, 'project', 'plugins', 'always.mjs'),
      "export const grader = { name: 'always', description: 'passes every case', grade: () => ({ grader: 'always', pass: true, score: 1, reason: 'ok' }) };\n",
    );
    writeFileSync(
      join(dir, 'project', 'cfg.yaml'),
      'suites: [excel]\nrenderers: [full-details]\nproviders: [sim:oracle]\ngraders: [plugins/always.mjs]\nout: runs\ngate: { baseline: none }\n',
    );
    // run from the folder above, and from an unrelated one: the same files are found
    for (const cwd of [dir, tmpdir()]) {
      const res = await runCliAnywhere(['eval', '-c', join(dir, 'project', 'cfg.yaml'), '-q'], cwd);
      expect(res.stderr).toContain('gate: passed');
      expect(res.stdout).toContain('always');
      expect(res.code).toBe(0);
    }
    expect(readdirSync(join(dir, 'project', 'runs'))).toHaveLength(2);
  }, 60_000);

  it('a config with provider options only, combined with --suite and --provider-option', async () => {
    const dir = folder({
      'local.yaml': `providers:\n  - id: openai-compatible:local\n    options: { baseURL: "${llm.url}/v1", temperature: 0 }\nrenderers: [full-details]\n`,
    });
    const res = await runCliAnywhere(
      ['eval', '-c', 'local.yaml', '--suite', 'excel', '--provider-option', 'maxRetries=0', '-q'],
      dir,
    );
    expect(res.stderr).toContain('gate: passed');
    expect(res.code).toBe(0);
  }, 60_000);

  it('--suite takes a path relative to the current folder, wherever the config is', async () => {
    const economist = readFileSync(join(ROOT, 'suites', 'economist.yaml'), 'utf8').replace(/^name: .*$/m, 'name: mine');
    const dir = folder({ 'mine.yaml': economist });
    mkdirSync(join(dir, 'cfg'));
    writeFileSync(join(dir, 'cfg', 'c.yaml'), 'providers: [sim:oracle]\nrenderers: [full-details]\n');
    const res = await runCliAnywhere(['eval', '-c', 'cfg/c.yaml', '--suite', 'mine.yaml', '-q'], dir);
    expect(res.stderr).toContain('gate: passed');
    expect(res.stdout).toContain('mine');
    expect(res.code).toBe(0);
  }, 60_000);

  it('no suites in the config and no --suite: exit 2 naming the config and the fix', async () => {
    const dir = folder({ 'c.yaml': 'providers: [sim:oracle]\n' });
    const res = await runCliAnywhere(['eval', '-c', 'c.yaml'], dir);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/c\.yaml: no suites to run; list `suites:` in the config or pass --suite/);
  }, 30_000);

  it('an unknown suite name: exit 2 naming it, the file looked for and the bundled names', async () => {
    const dir = folder({ 'c.yaml': 'suites: [exel]\nproviders: [sim:oracle]\n' });
    const res = await runCliAnywhere(['eval', '-c', 'c.yaml'], dir);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/suite 'exel' not found: .*relative to the config file.*bundled: .*excel/);
  }, 30_000);
});
