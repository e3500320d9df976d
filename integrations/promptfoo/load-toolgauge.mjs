// Finds toolgauge's public entry: $TOOLGAUGE_ENTRY (e.g. src/index.ts when promptfoo runs under `--import tsx`),
// else this repository's build (dist/src/index.js, made by `npm run build`), else an installed `toolgauge` package.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export async function loadToolgauge() {
  const fromEnv = process.env.TOOLGAUGE_ENTRY;
  if (fromEnv) {
    const file = isAbsolute(fromEnv) ? fromEnv : resolve(process.cwd(), fromEnv);
    return import(pathToFileURL(file).href);
  }
  const built = resolve(here, '../../dist/src/index.js');
  if (existsSync(built)) return import(pathToFileURL(built).href);
  try {
    return await import('toolgauge');
  } catch {
    throw new Error(
      `toolgauge promptfoo integration: toolgauge not found. Run \`npm run build\` in the toolgauge repository (expected ${built}), install the toolgauge package, or set TOOLGAUGE_ENTRY to its entry file.`,
    );
  }
}
