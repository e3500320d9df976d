import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { providerLoaders } from '../providers/index.js';
import { renderers } from '../renderers/index.js';
import { graders } from '../src/graders/index.js';
import { resolveGrader, resolveRenderer } from '../src/plugins/index.js';
import { resolveReporters } from '../src/report/reporter-registry.js';
import { builtinReporters } from '../src/report/reporters/index.js';
import { ROOT } from './cli-helpers.js';

/** The files `file` imports statically at run time (type-only imports and dynamic import() left out), transitively. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm)) {
    const spec = m[1] as string;
    staticImports(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

describe('plugin registries', () => {
  it('config imports no plugin implementation: no module of src/config reaches a renderer, provider, grader or writer', () => {
    const configDir = join(ROOT, 'src/config');
    const reached = readdirSync(configDir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) => [...staticImports(join(configDir, f))])
      .map((f) => relative(ROOT, f))
      .filter((f) =>
        /^(renderers\/(?!index)|providers\/(?!index|shared)|src\/graders\/|src\/report\/reporters\/)/.test(f),
      );
    expect(reached).toEqual([]);
  });

  it('resolve every built-in renderer and grader by name to the object the kind index exports', async () => {
    for (const [name, renderer] of Object.entries(renderers))
      expect(await resolveRenderer(name, ROOT, () => 'test')).toBe(renderer);
    for (const [name, grader] of Object.entries(graders))
      expect(await resolveGrader(name, ROOT, () => 'test')).toBe(grader);
    expect(Object.keys(providerLoaders)).toEqual(['openai', 'anthropic', 'ollama', 'openai-compatible', 'sim']);
  });

  it('offer one lookup per kind: the package exports the registries and no second lookup of the built-ins', async () => {
    const names = Object.keys(await import('../src/index.js'));
    expect(names).toEqual(expect.arrayContaining(['resolveRenderer', 'resolveProvider', 'resolveGrader']));
    expect(names.filter((n) => /^get(Renderer|Grader|Provider|Reporter)$/.test(n))).toEqual([]);
  });

  it('expand `default` to every built-in writer and always add run.json', async () => {
    const all = await resolveReporters(undefined, ROOT, () => 'test');
    expect(all.builtins.map((b) => b.name)).toEqual(Object.keys(builtinReporters));
    const some = await resolveReporters(['junit'], ROOT, () => 'test');
    expect(some.builtins.map((b) => b.name)).toEqual(['junit', 'json']);
    await expect(resolveReporters([{ name: 'html', options: { maxCases: -1 } }], ROOT, () => 'cfg')).rejects.toThrow(
      /cfg: reporter 'html': options\.maxCases: /,
    );
  });
});
