import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROMPTFOO_BIN, promptfooEnv } from '../bench/paths.js';
import { ROOT } from './cli-helpers.js';
import { testTempDir } from './helpers/temp-dirs.js';

// promptfoo lives in its own install (integrations/promptfoo); tests that need it skip when it is absent.
// Skip only when the folder's install is absent; a broken install must fail, not skip.
export const HAVE_PROMPTFOO = existsSync(join(ROOT, 'integrations/promptfoo/node_modules'));
export const SKIP_MESSAGE =
  'promptfoo is not installed: run `npm ci --prefix integrations/promptfoo` to run the promptfoo integration tests';

export interface PromptfooRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real promptfoo CLI offline: telemetry, update checks and sharing off, its config and cache in a temp
 * folder. The integration loads toolgauge from the TypeScript sources (through tsx), so no build is needed.
 */
export function runPromptfoo(args: string[], cwd: string, home = testTempDir('tg-pf-home-')) {
  const env = {
    ...promptfooEnv(home),
    TOOLGAUGE_ENTRY: join(ROOT, 'src/index.ts'),
    // tsx by absolute URL: promptfoo may run from a folder outside the repository.
    NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href}`,
    FORCE_COLOR: '0',
  };
  const child = spawn(PROMPTFOO_BIN, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise<PromptfooRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
