import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigSchema } from '../config/config-schema.js';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { loadYamlFile } from '../config/load-yaml.js';
import { ToolgaugeError } from '../errors.js';
import { type CompareOptions, DEFAULT_COMPARE } from '../report/compare.js';
import { displayPath } from '../util/display-path.js';

/** The comparison settings a command uses, and where they came from (for the line that says so). */
export interface CompareSettings {
  options: CompareOptions;
  /** "toolgauge.config.yaml", "--alpha", "built-in defaults"… */
  source: string;
}

/**
 * The gate's comparison settings (alpha, maxRegression) for the commands that compare outside a run (compare, plan):
 * from `--config` (it must exist), else from toolgauge.config.yaml in the current folder when there is one, else the
 * built-in defaults; a flag overrides the file. Only the file's `gate` is used, but the whole file is validated.
 */
export function compareSettings(flags: { config?: string; alpha?: number; maxRegression?: number }): CompareSettings {
  const file = resolve(flags.config ?? DEFAULT_CONFIG);
  let options = DEFAULT_COMPARE;
  let source = 'built-in defaults';
  if (existsSync(file)) {
    const gate = loadYamlFile(file, ConfigSchema, 'CONFIG_INVALID').data.gate;
    options = {
      alpha: gate.alpha ?? DEFAULT_COMPARE.alpha,
      maxRegression: gate.maxRegression ?? DEFAULT_COMPARE.maxRegression,
    };
    source = displayPath(file);
  } else if (flags.config !== undefined) {
    throw new ToolgaugeError('CONFIG_NOT_FOUND', `${displayPath(file)}: config file not found (--config)`);
  }
  const overridden = [
    flags.alpha !== undefined ? '--alpha' : '',
    flags.maxRegression !== undefined ? '--max-regression' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    options: {
      alpha: flags.alpha ?? options.alpha,
      maxRegression: flags.maxRegression ?? options.maxRegression,
    },
    source: overridden ? `${source}, ${overridden}` : source,
  };
}
