import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from './helpers/temp-dirs.js';

// docs/api.md's example script as a user runs it: the built package packed once, the tarball installed into a fresh
// project, the script run there with node against `import 'toolgauge'`. The project's node_modules links the
// dependencies this checkout has installed, so `npm install --no-save --offline` of the tarball adds the package alone
// (no registry, a quarter of the CPU of installing its dependency tree again; tests/packed-package.test.ts does that).
const ROOT = join(import.meta.dirname, '..');
const EXAMPLE = join(ROOT, 'docs', 'examples', 'api-example.mjs');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tempDir = useTempDirs();

let project: string;

function npm(args: string[], cwd: string): string {
  return execFileSync(NPM, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  for (const built of ['dist/src/index.js', 'dist/src/api/evaluate.js']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` (npm ci runs it)`);
  }
  const dir = tempDir('tg-api-tarball-');
  // the build is the one under test: packing must not rebuild it (prepare)
  const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as {
    filename: string;
  }[];
  project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'api-project', private: true, type: 'module' }));
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: object };
  for (const dep of Object.keys(manifest.dependencies)) {
    mkdirSync(dirname(join(project, 'node_modules', dep)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
  }
  npm(
    [
      'install',
      '--no-save',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      join(dir, packed?.filename ?? ''),
    ],
    project,
  );
  // the package itself is installed from the tarball, not linked to this checkout
  expect(lstatSync(join(project, 'node_modules', 'toolgauge')).isSymbolicLink()).toBe(false);
  copyFileSync(EXAMPLE, join(project, 'api-example.mjs'));
}, 300_000);

describe('the library API from the packed package', () => {
  it("runs docs/api.md's example: an offline eval with simulated models on a bundled suite, its verdict printed", () => {
    const run = spawnSync(process.execPath, ['api-example.mjs'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
    });
    expect(run.stderr).toBe('92/92 cases finished\n');
    const lines = run.stdout.trimEnd().split('\n');
    const runs = readdirSync(join(project, 'reports'));
    expect(runs).toHaveLength(1);
    expect(lines[0]).toBe(`92 cases, 19 with a failing grade → ${join(project, 'reports', runs[0] ?? '')}`);
    expect(lines.slice(1)).toEqual([
      'gate: correct-arguments >= 100.0% in * × sim:oracle: checked 2 cell(s)',
      'gate: passed',
      'verdict: exit 0',
    ]);
    expect(run.status).toBe(0);
    // the run folder is a whole run: its log and every report, read by the installed command line as any other
    const folder = join(project, 'reports', runs[0] ?? '');
    for (const f of ['run.jsonl', 'summary.md', 'report.html', 'results.csv', 'junit.xml', 'run.json'])
      expect(existsSync(join(folder, f)), f).toBe(true);
    expect(readFileSync(join(folder, 'summary.md'), 'utf8')).toContain('sim:guesser');
  });

  it('docs/api.md shows the example script as it is run here', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
    const block = /```js\n\/\/ docs\/examples\/api-example\.mjs\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBe(readFileSync(EXAMPLE, 'utf8'));
  });
});
