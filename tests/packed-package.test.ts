import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The package as users get it: `npm pack` of the built package, installed into a fresh project (its dependencies
// from the local npm cache when they are there), then the example plugins of each kind type-checked against the
// package's own .d.ts with tsc, and run by the installed command line (which loads the .ts plugins itself).
const ROOT = join(import.meta.dirname, '..');
const EXAMPLES = join(ROOT, 'examples', 'plugins');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

let dir: string;
let project: string;

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
  });
}

beforeAll(() => {
  for (const built of ['dist/src/index.d.ts', 'dist/src/contracts/index.d.ts', 'dist/cli/main.js']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` (npm ci runs it)`);
  }
  dir = mkdtempSync(join(tmpdir(), 'tg-packed-'));
  // the build is the one under test: packing must not rebuild it (prepare)
  const [packed] = JSON.parse(run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as {
    filename: string;
  }[];
  project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'plugin-project', private: true, type: 'module' }),
  );
  run(
    NPM,
    [
      'install',
      join(dir, packed?.filename ?? ''),
      `typescript@${versionOf('typescript')}`,
      `@types/node@${versionOf('@types/node')}`,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    project,
  );
  for (const f of readdirSync(EXAMPLES)) copyFileSync(join(EXAMPLES, f), join(project, f));
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('type-checks a renderer, a provider, a grader and a reporter against its .d.ts (strict, lib check on)', () => {
    // Types that are really checked, not `any`: each @ts-expect-error below must meet an error, or tsc fails.
    writeFileSync(
      join(project, 'contract-checks.ts'),
      [
        "import type { Grader, PluginExports, RunEnd } from 'toolgauge';",
        "import type { Renderer } from 'toolgauge/contracts';",
        "export const r: Renderer['name'] = 'ok';",
        '// @ts-expect-error a grade’s pass is a boolean',
        "export const g: Grader = { name: 'g', description: '', grade: () => ({ grader: 'g', pass: 'yes', score: 1, reason: '' }) };",
        '// @ts-expect-error a reporter has no onTest hook',
        "export const rep: PluginExports['reporter'] = { onTest() {} };",
        'export const gateExit = (end: RunEnd): number | undefined => end.gate?.exitCode;',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        include: ['*.ts'],
      }),
    );
    let out = '';
    try {
      out = run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], project);
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      throw new Error(`tsc failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    }
    expect(out).toBe('');
    const dts = readFileSync(
      join(project, 'node_modules', 'toolgauge', 'dist', 'src', 'contracts', 'reporter.d.ts'),
      'utf8',
    );
    expect(dts).toContain('onRunEnd?(run: RunEnd)');
  }, 180_000);

  it('its command line runs the TypeScript plugins of each kind by path', () => {
    writeFileSync(
      join(project, 'suite.yaml'),
      [
        'name: packed',
        'tools:',
        '  - name: get_weather',
        '    description: Current weather for a city.',
        '    inputSchema: { type: object, properties: { city: { type: string } }, required: [city] }',
        'cases:',
        '  - id: weather',
        "    prompt: What's the weather in Oslo?",
        '    expect: { calls: [{ tool: get_weather, args: { city: [Oslo] } }] }',
        '    results: { get_weather: "12°C, cloudy" }',
        '  - id: capital',
        "    prompt: What's the capital of France?",
        '    expect: { no_call: true }',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'toolgauge.config.yaml'),
      [
        'suites: [suite.yaml]',
        'renderers: [./json-schema-renderer.ts, full-details]',
        'providers: [sim:oracle, { id: ./canned-provider.ts, options: { reply: Paris. } }]',
        'graders: [correct-arguments, no-call, ./few-turns-grader.ts]',
        'reporters: [default, ./failures-reporter.ts]',
        'gate: { baseline: none }',
      ].join('\n'),
    );
    const bin = join(project, 'node_modules', 'toolgauge', 'bin', 'toolgauge.js');
    const res = execFileSync(process.execPath, [bin, 'eval', '-q'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
    });
    expect(res).toContain('| ./json-schema-renderer.ts | sim:oracle (simulated) | 100% (1/1');
    expect(res).toContain('| full-details | ./canned-provider.ts (simulated) | 0% (0/1');
    const [runId] = readdirSync(join(project, 'reports'));
    const failures = readFileSync(join(project, 'reports', runId ?? '', 'failures.txt'), 'utf8')
      .trim()
      .split('\n');
    expect(failures).toHaveLength(2);
    for (const line of failures)
      expect(line).toMatch(/^packed\/weather\|.*canned-provider\.ts\|0\tcorrect-arguments: /);
  }, 120_000);
});
