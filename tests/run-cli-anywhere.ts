import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, type CliResult, finished, ROOT } from './cli-helpers.js';

/**
 * `--import` for tsx by file URL: `--import tsx` resolves the package from the process's folder, so a CLI (or a server
 * command) started in a folder outside the checkout needs the loader's full address.
 */
export const TSX_IMPORT = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

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
