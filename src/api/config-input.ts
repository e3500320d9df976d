import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigSchema } from '../config/config-schema.js';
import { type ConfigOverrides, type LoadedConfig, loadConfig, withOverrides } from '../config/load-config.js';
import { formatPath, problemsError } from '../config/load-yaml.js';

/** A config as the config file holds it (every field optional, defaults applied), given as an object. */
export type ConfigObject = z.input<typeof ConfigSchema>;

/**
 * The name a config given as an object goes by: in messages (`(config object): renderers[0]: …`) and in the run
 * log's header. It is never a file that exists, so resuming such a run takes its config from the header alone.
 */
export const CONFIG_OBJECT_NAME = '(config object)';

/**
 * The config of a run: a config file's path (relative to the current folder; absent: toolgauge.config.yaml there), or
 * a config object whose paths are relative to `baseDir` (default: the current folder); with the overrides laid over
 * it, as the command line's flags are. A bad object is one CONFIG_INVALID error listing each problem at its path.
 */
export function loadConfigInput(
  input: string | ConfigObject | undefined,
  overrides: ConfigOverrides,
  baseDir?: string,
): LoadedConfig {
  if (input === undefined || typeof input === 'string') return loadConfig(input, overrides);
  const file = join(resolve(baseDir ?? '.'), CONFIG_OBJECT_NAME);
  const parsed = ConfigSchema.safeParse(input);
  const locate = (path: readonly PropertyKey[]) => `${CONFIG_OBJECT_NAME}: ${formatPath(path)}`;
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path, message: i.message }));
    throw problemsError('CONFIG_INVALID', file, issues, locate);
  }
  return withOverrides(file, parsed.data, locate, overrides);
}
