import { ROOT } from '../cli-helpers.js';
import { ensureCliBundle } from '../helpers/cli-build.js';

/** Global setup: the CLI bundle every CLI test spawns, rebuilt from the current sources when they changed. */
export default function setup(): void {
  const { built } = ensureCliBundle(ROOT);
  if (built) process.stderr.write('tests: dist/cli rebuilt from the current sources\n');
}
