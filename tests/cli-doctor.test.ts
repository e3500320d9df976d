import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from './helpers/temp-dirs.js';
import { runCliAnywhere } from './run-cli-anywhere.js';
import { type ServedLlm, serveLlmProcess } from './serve-llm-process.js';

const tempDir = useTempDirs();

/** `toolgauge doctor` through the real CLI: what it finds, and the fix it prints under each problem. */
let llm: ServedLlm;
beforeAll(async () => {
  llm = await serveLlmProcess('oracle');
}, 60_000);
afterAll(() => llm?.stop());

const BROKEN_SUITE = `name: broken
servers:
  crashy: { command: [node, -e, "process.stderr.write('no database configured'); process.exit(1)"] }
cases:
  - id: a
    prompt: hi
    expect: { no_call: true }
`;

describe('toolgauge doctor', () => {
  it('reports a missing key, a server that fails to start and a missing baseline, with fixes; exit 1', async () => {
    const dir = tempDir('tg-doctor-');
    writeFileSync(join(dir, 'broken.yaml'), BROKEN_SUITE);
    writeFileSync(
      join(dir, 'toolgauge.config.yaml'),
      [
        'suites: [excel, broken.yaml]',
        'providers:',
        '  - anthropic:claude-3-5-haiku-latest',
        '  - { id: openai-compatible:down, options: { baseURL: "http://user:s3cret-pass@127.0.0.1:9/v1" } }',
        `  - { id: openai-compatible:up, options: { baseURL: "${llm.url}/v1" } }`,
        '  - sim:oracle',
      ].join('\n'),
    );
    const res = await runCliAnywhere(['doctor'], dir, { ANTHROPIC_API_KEY: '' });
    const out = res.stdout;
    expect(out).toMatch(/^ok {4}node: v\d+/m);
    expect(out).toMatch(
      /FAIL {2}provider anthropic:claude-3-5-haiku-latest: .*no API key — set the environment variable ANTHROPIC_API_KEY\n +fix: export ANTHROPIC_API_KEY=/,
    );
    expect(out).toMatch(
      /FAIL {2}provider openai-compatible:down: server http:\/\/.*127\.0\.0\.1:9\/v1 does not answer/,
    );
    expect(out).not.toContain('s3cret-pass');
    expect(out).toMatch(/ok {4}provider openai-compatible:up: server .* answers/);
    expect(out).toMatch(/ok {4}suite excel, server excel: started, lists 25 tools/);
    expect(out).toMatch(
      /FAIL {2}suite broken, server crashy: MCP server 'crashy' failed to start.*no database configured/,
    );
    expect(out).toMatch(/warn {2}baseline: reports\/baseline\.json not found.*\n +fix: .*toolgauge baseline update/);
    // a local server with the hosted defaults (turns of 60 s): how to size them
    expect(out).toMatch(
      /warn {2}sizing for openai-compatible:up: timeouts\.turnMs 60000 is sized for a hosted API.*\n +fix: timeouts\.turnMs: 300000 on a CPU.*docs\/providers\.md/,
    );
    expect(out).toMatch(/doctor: 3 problems to fix, 3 warnings/);
    expect(res.code).toBe(1);
  }, 60_000);

  it('says when more cases are in flight than a local server takes', async () => {
    const dir = tempDir('tg-doctor-size-');
    writeFileSync(
      join(dir, 'c.yaml'),
      [
        'suites: [economist]',
        `providers: [{ id: openai-compatible:local, options: { baseURL: "${llm.url}/v1", concurrency: 1, timeoutMs: 300000 } }]`,
        'concurrency: 8',
        'timeouts: { turnMs: 300000 }',
        'gate: { baseline: none }',
      ].join('\n'),
    );
    const res = await runCliAnywhere(['doctor', '-c', 'c.yaml'], dir);
    expect(res.stdout).toMatch(
      /warn {2}sizing for openai-compatible:local: 8 cases in flight for 1 request slot\(s\).*\n +fix: concurrency: 1/,
    );
    expect(res.stdout).toContain('doctor: ready to run (1 warning)');
    expect(res.code).toBe(0);
  }, 30_000);

  it('is ready when everything is, the baseline one of this configuration: exit 0', async () => {
    const dir = tempDir('tg-doctor-ok-');
    const config = 'suites: [economist]\nproviders: [sim:oracle]\ngate: { baseline: base/b.json }\n';
    writeFileSync(join(dir, 'c.yaml'), config);
    const run = await runCliAnywhere(['eval', '-c', 'c.yaml', '-q'], dir);
    expect(run.code).toBe(0);
    const runDir = /→ (\S+)\n/.exec(run.stderr)?.[1] ?? '';
    expect((await runCliAnywhere(['baseline', 'update', runDir, '-c', 'c.yaml'], dir)).code).toBe(0);
    // the same config elsewhere in the folder, with another gate and timeouts: the same measurement
    writeFileSync(
      join(dir, 'same.yaml'),
      `${config.replace('gate: {', 'gate: { maxInfraErrorRate: 0.5,')}timeouts: { turnMs: 1000 }\n`,
    );
    // another seed: another measurement; its runs go elsewhere, and doctor is run from the folder above the config's
    writeFileSync(join(dir, 'reseeded.yaml'), `${config}seed: 7\nout: runs\n`);
    const [same, reseeded] = await Promise.all([
      runCliAnywhere(['doctor', '-c', 'same.yaml'], dir),
      runCliAnywhere(['doctor', '-c', join(basename(dir), 'reseeded.yaml')], dirname(dir)),
    ]);
    expect(same.stdout).toMatch(/ok {4}expected calls: every case names tools and parameters its servers list/);
    expect(same.stdout).toMatch(/ok {4}baseline: base\/b\.json \(run \S+, this configuration\)/);
    expect(same.stdout).toContain('doctor: ready to run\n');
    expect(same.code).toBe(0);
    expect(reseeded.stdout).toMatch(
      /warn {2}baseline: \S+\/base\/b\.json \(run \S+\) was made with another configuration .*\n +fix: .*toolgauge baseline update/,
    );
    // the fix names the run folder where this config's runs are, as typed from where doctor ran
    expect(reseeded.stdout).toContain(
      `toolgauge baseline update ${basename(dir)}/runs/<run-id> -c ${basename(dir)}/reseeded.yaml`,
    );
    expect(reseeded.stdout).toContain('doctor: ready to run (1 warning)');
  }, 90_000);

  it('fails what eval would stop on: an expected call the server does not list, a baseline that is not one', async () => {
    const dir = tempDir('tg-doctor-truth-');
    writeFileSync(
      join(dir, 'eco.yaml'),
      [
        'name: eco',
        'servers: { economist: { builtin: economist } }',
        'cases:',
        '  - { id: a, prompt: p, expect: { calls: [{ tool: no_such_tool }] } }',
      ].join('\n'),
    );
    mkdirSync(join(dir, 'base'));
    writeFileSync(join(dir, 'base', 'b.json'), '{}');
    writeFileSync(
      join(dir, 'c.yaml'),
      'suites: [eco.yaml]\nproviders: [sim:oracle]\ngate: { baseline: base/b.json }\n',
    );
    const [doctor, evalRun] = await Promise.all([
      runCliAnywhere(['doctor', '-c', 'c.yaml'], dir),
      runCliAnywhere(['eval', '-c', 'c.yaml', '-q'], dir),
    ]);
    expect(evalRun.code).toBe(2);
    expect(doctor.stdout).toMatch(/ok {4}suite eco, server economist: started, lists \d+ tools/);
    expect(doctor.stdout).toMatch(/FAIL {2}expected calls: .*eco\.yaml:4:\d+: .*no_such_tool/);
    expect(doctor.stdout).toMatch(/FAIL {2}baseline: .*b\.json: not a toolgauge baseline/);
    expect(doctor.stdout).toContain('doctor: 2 problems to fix');
    expect(doctor.code).toBe(1);
  }, 60_000);

  it('a config that does not load is one problem with its fix', async () => {
    const dir = tempDir('tg-doctor-none-');
    const res = await runCliAnywhere(['doctor', '-c', 'missing.yaml'], dir);
    expect(res.stdout).toMatch(/FAIL {2}config: missing\.yaml: config file not found.*\n +fix: .*toolgauge init/);
    expect(res.code).toBe(1);
  }, 30_000);
});
