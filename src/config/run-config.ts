import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunHeader } from '../contracts/run-log.js';
import { restoreRedacted } from '../util/redact.js';
import type { Config } from './config-schema.js';
import { type LoadedConfig, loadConfig } from './load-config.js';
import { applyProviderOptionFlags, parseProviderOptionFlag } from './provider-options-cli.js';

/**
 * The config of a run being resumed or replayed: the run's own, from its header. Credentials are redacted there; they
 * come back from the config file the run was started with, where the file still holds the same values, or — for a run
 * started from the command line alone, which has no file — from `--provider-option` flags given again.
 */
export function configOfRun(header: RunHeader, providerOptions: readonly string[] = []): LoadedConfig {
  const config = header.config as Config;
  if (existsSync(header.configFile)) {
    const fromFile = loadConfig(header.configFile, {});
    return { ...fromFile, config: restoreRedacted(config, fromFile.config) };
  }
  // Started without a config file (`--suite … --provider …`): its suites are absolute paths or bundled names, and
  // everything else is in the header.
  const flags = providerOptions.map(parseProviderOptionFlag);
  const original = { ...config, providers: applyProviderOptionFlags(config.providers, flags) };
  const label = (list: string) => (i: number) => `${header.runId}'s header: ${list}[${i}]`;
  return {
    file: header.configFile,
    dir: dirname(header.configFile),
    config: restoreRedacted(config, original),
    origin: {
      renderers: label('renderers'),
      providers: label('providers'),
      graders: label('graders'),
      variants: label('variants'),
    },
  };
}
