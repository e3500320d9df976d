import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The built CLI (benchmarks measure what users run: `npm run build` first). */
export const CLI = join(ROOT, 'bin/toolgauge.js');
export const PROMPTFOO_BIN = join(ROOT, 'integrations/promptfoo/node_modules/.bin/promptfoo');

export function haveBuild(): boolean {
  return existsSync(join(ROOT, 'dist/src/cli/main.js')) && existsSync(join(ROOT, 'dist/cli/main.js'));
}

export function havePromptfoo(): boolean {
  return existsSync(join(ROOT, 'integrations/promptfoo/node_modules/promptfoo/package.json'));
}

/** promptfoo offline, its state in `home`. */
export function promptfooEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_SHARING: '1',
    PROMPTFOO_DISABLE_REMOTE_GENERATION: '1',
    PROMPTFOO_CONFIG_DIR: home,
    PROMPTFOO_CACHE_PATH: join(home, 'cache'),
    NO_COLOR: '1',
  };
}
