import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CliResult, finished, ROOT } from './cli-helpers.js';

/**
 * `--import` for tsx by file URL: `--import tsx` resolves the package from the process's folder, so a CLI (or a server
 * command) started in a folder outside the checkout needs the loader's full address.
 */
export const TSX_IMPORT = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** The real CLI's command words, runnable from any folder. */
export const CLI_WORDS = [process.execPath, '--import', TSX_IMPORT, join(ROOT, 'src/cli/main.ts')];

/** Runs the real CLI (TypeScript sources through tsx) in `cwd`, which may be outside the checkout. */
export function runCliAnywhere(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const [node, ...rest] = CLI_WORDS as [string, ...string[]];
  const child = spawn(node, [...rest, ...args], {
    cwd,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child);
}
