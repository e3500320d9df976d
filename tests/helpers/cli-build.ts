import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The CLI the tests spawn is the esbuild bundle users run (bin/toolgauge.js → dist/cli/main.js), built once per test
 * run by the global setup instead of every spawn compiling the TypeScript sources through tsx (~3x the CPU of a short
 * command). The bundle must hold the sources under test: a stamp records a hash of every input the bundle may use and
 * of the bundle itself, and the bundle is rebuilt whenever either differs (a source edited, or dist/cli rebuilt by
 * `npm run build` from other sources).
 */

/** Folders whose files (tests excepted) the bundle may be made of. */
const SOURCE_DIRS = ['src', 'providers', 'renderers', 'mock-servers'];
/** Single files that change what the bundle holds. */
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/bundle-cli.mjs'];

export interface CliBundle {
  /** The folder esbuild writes (dist/cli). */
  outdir: string;
  /** true when it was (re)built by this call. */
  built: boolean;
}

function filesUnder(root: string, dir: string, keep: (rel: string) => boolean): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)))
    .filter(keep);
}

/** One hash of the named files' paths and contents, in a stable order. */
function hashFiles(root: string, files: string[]): string {
  const hash = createHash('sha256');
  for (const rel of [...files].sort()) {
    hash.update(rel).update('\0');
    hash.update(existsSync(join(root, rel)) ? readFileSync(join(root, rel)) : 'missing').update('\0');
  }
  return hash.digest('hex');
}

function sourcesHash(root: string): string {
  const sources = SOURCE_DIRS.flatMap((d) => filesUnder(root, d, (rel) => !rel.endsWith('.test.ts')));
  return hashFiles(root, [...sources, ...SOURCE_FILES]);
}

function bundleHash(root: string, outdir: string): string {
  return hashFiles(
    root,
    filesUnder(root, relative(root, outdir), () => true),
  );
}

/** Rebuilds dist/cli with scripts/bundle-cli.mjs unless the stamp shows it was built from these very sources. */
export function ensureCliBundle(root: string): CliBundle {
  const outdir = join(root, 'dist', 'cli');
  const stampFile = join(root, 'node_modules', '.cache', 'toolgauge-tests', 'cli-bundle.json');
  const sources = sourcesHash(root);
  const stamp = existsSync(stampFile)
    ? (JSON.parse(readFileSync(stampFile, 'utf8')) as { sources?: string; bundle?: string })
    : {};
  if (stamp.sources === sources && existsSync(join(outdir, 'main.js')) && stamp.bundle === bundleHash(root, outdir)) {
    return { outdir, built: false };
  }
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle-cli.mjs')], { cwd: root, stdio: 'inherit' });
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ sources, bundle: bundleHash(root, outdir) }));
  return { outdir, built: true };
}
