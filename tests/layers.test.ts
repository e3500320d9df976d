import { execFile } from 'node:child_process';
import { cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from './helpers/temp-dirs.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const tempDir = useTempDirs();

interface Check {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node scripts/check-layers.mjs` (what `npm run lint` runs after biome) in `cwd`. */
async function checkLayers(cwd: string): Promise<Check> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/check-layers.mjs'], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** A copy of the checked folders and the check itself, outside the repository, with `planted` files added. */
function copyWith(planted: Record<string, string>): string {
  const dir = tempDir('tg-layers-');
  for (const part of ['src', 'providers', 'renderers', 'mock-servers']) {
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  }
  for (const file of [
    'package.json',
    'tsconfig.json',
    '.dependency-cruiser.cjs',
    'scripts/layers.cjs',
    'scripts/check-layers.mjs',
  ]) {
    cpSync(join(ROOT, file), join(dir, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const [path, text] of Object.entries(planted)) writeFileSync(join(dir, path), text);
  return dir;
}

describe('the layering check of npm run lint', () => {
  it('passes on the tree as it is', async () => {
    const { code, stdout, stderr } = await checkLayers(ROOT);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/no upward import, no folder loop/);
  });

  it('fails a planted upward import (type-only), a module only tests use and a loop between two folders of one layer', async () => {
    const upward = copyWith({
      'src/util/planted-upward.ts':
        "import type { Strategy } from '../plugins/index.js';\nexport type Planted = Strategy;\n",
      'src/parse/planted-fixture.ts': "export const PLANTED_REPLIES = ['<tool_call>'];\n",
    });
    const loop = copyWith({ 'src/parse/planted-loop.ts': "export { gradeCase } from '../graders/grade-case.js';\n" });
    const [up, around] = await Promise.all([checkLayers(upward), checkLayers(loop)]);

    expect(up.code).toBe(1);
    expect(up.stderr).toMatch(
      /^layer-ground: src\/util\/planted-upward\.ts imports src\/plugins\/index\.ts \(a module of the ground \(src\/contracts, src\/util, src\/errors\.ts\) may import only the ground;/m,
    );

    // Imported by no module of the build (a test would import it): it belongs in tests/fixtures, outside dist.
    expect(up.stderr).toMatch(/^production-code-reached-from-an-entry: src\/parse\/planted-fixture\.ts \(/m);

    expect(around.code).toBe(1);
    // Both folders are pure stages, so no layer rule forbids the import: the loop check does.
    expect(around.stderr).not.toMatch(/^layer-/m);
    expect(around.stderr).toMatch(
      /^no-folder-cycle: src\/graders, src\/parse import each other, e\.g\. src\/graders → src\/parse → src\/graders \(src\/graders\/[a-z-]+\.ts imports src\/parse\/[a-z-]+\.ts; src\/parse\/planted-loop\.ts imports src\/graders\/grade-case\.ts\)$/m,
    );
  });
});
