import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, type CliResult, finished, ROOT } from './cli-helpers.js';

/**
 * `--import` for tsx by file URL: `--import tsx` resolves the package from the process's folder, so a process that
 * loads the TypeScript sources in a folder outside the checkout needs the loader's full address.
 */
export const TSX_IMPORT = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/**
 * The CLI from its TypeScript sources through tsx, runnable from any folder: only for the test that checks the bundle
 * and the sources agree (tests/cli-bundle.test.ts); every other test runs the bundle (CLI_WORDS).
 */
export const SOURCE_CLI_WORDS = [process.execPath, '--import', TSX_IMPORT, join(ROOT, 'src/cli/main.ts')];

/** The real CLI's command words (the bundle of the current sources, tests/cli-helpers.ts), runnable from any folder. */
export const CLI_WORDS = [process.execPath, BIN];

/** Runs the real CLI in `cwd`, which may be outside the checkout. */
export function runCliAnywhere(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const [node, ...rest] = CLI_WORDS as [string, ...string[]];
  const child = spawn(node, [...rest, ...args], {
    cwd,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child);
}
