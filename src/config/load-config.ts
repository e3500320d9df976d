import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { ToolgaugeError } from '../errors.js';
import { displayPath } from '../util/display-path.js';
import { packageRoot } from '../util/package-root.js';
import { type Config, ConfigSchema } from './config-schema.js';
import { type LoadedSuite, loadSuite } from './load-suite.js';
import { loadYamlFile } from './load-yaml.js';
import { applyProviderOptionFlags, parseProviderOptionFlag } from './provider-options-cli.js';
import { filterCases } from './suite-cases.js';
import { applyVariantFlags } from './variant-flags.js';

export const DEFAULT_CONFIG = 'toolgauge.config.yaml';

/** Command-line overrides of the config; each replaces the config's value when given. */
export interface ConfigOverrides {
  suites?: string[];
  renderers?: string[];
  providers?: string[];
  graders?: string[];
  repeat?: number;
  concurrency?: number;
  seed?: number;
  out?: string;
  maxTurns?: number;
  /** `--provider-option KEY=VALUE` (repeatable): laid over the options of every provider of the run. */
  providerOptions?: string[];
  /** `--variant NAME|{…}` (repeatable): the catalog variants every renderer runs on. */
  variants?: string[];
  /** `--sweep FIELD=v1,v2,…` (repeatable): a numeric variant field swept into one strategy per value. */
  sweeps?: string[];
}

export interface LoadedConfig {
  /** Absolute path of the config file. */
  file: string;
  dir: string;
  config: Config;
  /** Where entry i of each list came from, for error messages: `file:line:col: renderers[i]` or `--renderer[i]`. */
  origin: {
    renderers: (i: number) => string;
    providers: (i: number) => string;
    graders: (i: number) => string;
    /** Where variant i is defined (`file:line:col: variants[i]`, or the command line's --variant). */
    variants?: (i: number) => string;
  };
}

export function loadConfig(path: string | undefined, overrides: ConfigOverrides = {}): LoadedConfig {
  const file = resolve(path ?? DEFAULT_CONFIG);
  // The default file may be absent when the command line gives the suites and providers: the run is all defaults and
  // flags, relative to the current folder (a local server needs no config file).
  const flagsOnly =
    !existsSync(file) &&
    (path === undefined || path === DEFAULT_CONFIG) &&
    (overrides.suites?.length ?? 0) > 0 &&
    (overrides.providers?.length ?? 0) > 0;
  if (!existsSync(file) && !flagsOnly) throw missingConfig(file, path, overrides);
  const { data: base, locate } = flagsOnly
    ? { data: ConfigSchema.parse({}), locate: (at: readonly PropertyKey[]) => `(no config file) ${at.join('.')}` }
    : loadYamlFile(file, ConfigSchema, 'CONFIG_INVALID');
  return withOverrides(file, base, locate, overrides);
}

/**
 * A config read from its file (or given as an object: `evaluate({ config: {...} })`), with the command line's
 * overrides laid over it, and where each list entry came from. `file` names the config in messages; its folder is
 * the one the config's paths are relative to.
 */
export function withOverrides(
  file: string,
  base: Config,
  locate: (at: readonly PropertyKey[]) => string,
  overrides: ConfigOverrides,
): LoadedConfig {
  const providerFlags = (overrides.providerOptions ?? []).map(parseProviderOptionFlag);
  const merged: Config = {
    ...base,
    // A suite given on the command line is a path relative to the current folder (or a bundled suite's name); the
    // config's suites, like every path in the config, are relative to the config file.
    suites: overrides.suites ? overrides.suites.map(cliSuiteSpec) : base.suites,
    renderers: overrides.renderers ?? base.renderers,
    providers: applyProviderOptionFlags(overrides.providers ?? base.providers, providerFlags),
    graders: overrides.graders ?? base.graders,
    repeats: overrides.repeat ?? base.repeats,
    concurrency: overrides.concurrency ?? base.concurrency,
    seed: overrides.seed ?? base.seed,
    // --out is relative to where the user typed it; the config's `out` is relative to the config file.
    out: overrides.out ? resolve(overrides.out) : base.out,
    maxTurns: overrides.maxTurns ?? base.maxTurns,
  };
  const config = applyVariantFlags(merged, {
    ...(overrides.variants ? { variants: overrides.variants } : {}),
    ...(overrides.sweeps ? { sweeps: overrides.sweeps } : {}),
  });
  const fileVariants = base.variants?.length ?? 0;
  for (const [list, flag] of [
    ['suites', '--suite'],
    ['providers', '--provider'],
  ] as const) {
    if (config[list].length === 0) {
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `${displayPath(file)}: no ${list} to run; list \`${list}:\` in the config or pass ${flag} <…>`,
      );
    }
  }
  return {
    file,
    dir: dirname(file),
    config,
    origin: {
      renderers: (i) => (overrides.renderers ? `--renderer ${overrides.renderers[i]}` : locate(['renderers', i])),
      providers: (i) =>
        overrides.providers
          ? `--provider ${overrides.providers[i]}`
          : providerFlags.length > 0
            ? `${locate(['providers', i])} (with --provider-option)`
            : locate(['providers', i]),
      graders: (i) => (overrides.graders ? `--grader ${overrides.graders[i]}` : locate(['graders', i])),
      variants: (i) => (i < fileVariants ? locate(['variants', i]) : `--variant/--sweep variants[${i}]`),
    },
  };
}

/**
 * No config file, and the command line does not make up for it: what was looked for and how to give it. A config
 * named by --config that is absent is that file's fault; with the default one absent, what is missing is named (the
 * suites, the providers, or both), not a file the user never wrote.
 */
function missingConfig(file: string, path: string | undefined, overrides: ConfigOverrides): ToolgaugeError {
  const named = path !== undefined && path !== DEFAULT_CONFIG;
  if (named) {
    return new ToolgaugeError(
      'CONFIG_NOT_FOUND',
      `${displayPath(file)}: config file not found; check the path given to --config, or run toolgauge init to write one`,
    );
  }
  const suites = (overrides.suites?.length ?? 0) > 0;
  const providers = (overrides.providers?.length ?? 0) > 0;
  const looked = `there is no config file (looked for ${file})`;
  const bundled = bundledSuiteNames();
  const suiteHow = `--suite <suite file, or a bundled suite${bundled.length ? `: ${bundled.join(', ')}` : ''}>`;
  const providerHow = '--provider <id> (e.g. sim:oracle, openai:gpt-4o-mini, ollama:qwen2.5)';
  if (providers && !suites) {
    return new ToolgaugeError(
      'CONFIG_NOT_FOUND',
      `no suite to run: no --suite given, and ${looked}; pass ${suiteHow}, or --config <file>`,
    );
  }
  if (suites && !providers) {
    return new ToolgaugeError(
      'CONFIG_NOT_FOUND',
      `no provider to run: no --provider given, and ${looked}; pass ${providerHow}, or --config <file>`,
    );
  }
  return new ToolgaugeError(
    'CONFIG_NOT_FOUND',
    `nothing to run: ${looked}; pass --config <file>, or run toolgauge init to write one, or give ${suiteHow} and ${providerHow}`,
  );
}

/** `--suite S`: an existing file relative to the current folder becomes absolute; anything else stays a name. */
function cliSuiteSpec(spec: string): string {
  const here = resolve(spec);
  return existsSync(here) && statSync(here).isFile() ? here : spec;
}

/**
 * A suite is a path (relative to `baseDir`: the config file's folder) or the name of a bundled suite: suites/<name>.yaml
 * beside the config, else toolgauge's own suites/<name>.yaml (so `suites: [excel]` works in a config anywhere).
 */
export function resolveSuitePath(spec: string, baseDir: string): string {
  const direct = isAbsolute(spec) ? spec : resolve(baseDir, spec);
  if (existsSync(direct)) return direct;
  if (isAbsolute(spec) || spec.includes('/') || spec.includes('\\')) return direct;
  for (const dir of [resolve(baseDir, 'suites'), join(packageRoot(), 'suites')]) {
    for (const candidate of [join(dir, `${spec}.yaml`), join(dir, `${spec}.yml`)]) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return direct;
}

/** Names of the suites bundled with toolgauge (suites/*.yaml), for error messages. */
export function bundledSuiteNames(): string[] {
  try {
    return readdirSync(join(packageRoot(), 'suites'))
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => f.replace(/\.ya?ml$/, ''))
      .sort();
  } catch {
    return [];
  }
}

/** The config's suites, each case id unique per suite name, narrowed by `--filter` / `--tag` when given. */
export function loadSuites(loaded: LoadedConfig, filter?: CaseFilter): LoadedSuite[] {
  const suites = loaded.config.suites.map((s) => {
    const file = resolveSuitePath(s, loaded.dir);
    if (!existsSync(file)) {
      throw new ToolgaugeError(
        'SUITE_INVALID',
        `${displayPath(loaded.file)}: suite '${s}' not found: no file ${displayPath(file)} (relative to the config file) and no bundled suite of that name (bundled: ${bundledSuiteNames().join(', ')})`,
      );
    }
    return loadSuite(file);
  });
  const names = new Map<string, string>();
  for (const s of suites) {
    const prev = names.get(s.suite.name);
    if (prev) {
      throw new ToolgaugeError(
        'SUITE_INVALID',
        `${displayPath(s.file)}: suite name '${s.suite.name}' is also used by ${prev}`,
      );
    }
    names.set(s.suite.name, displayPath(s.file));
  }
  return filter ? selectCases(suites, filter) : suites;
}

/** `--filter` and `--tag`, each repeatable: which of the suites' cases a run takes. */
export interface CaseFilter {
  /** Globs over case ids (or suite/case): a case is taken when it matches any. */
  globs?: string[];
  /** Tags: a case is taken when it has any. */
  tags?: string[];
}

/**
 * The cases the filter takes (a case must pass both lists when both are given), dropping emptied suites. A glob or
 * tag that matches no case is a usage error naming it: a mistyped one would otherwise narrow the run silently.
 */
export function selectCases(suites: LoadedSuite[], filter: CaseFilter): LoadedSuite[] {
  const globs = filter.globs ?? [];
  const tags = filter.tags ?? [];
  if (globs.length === 0 && tags.length === 0) return suites;
  const matchers = globs.map((g) => ({ glob: g, match: picomatch(g) }));
  // One pass over every case (a large suite is read from its file, not held): which globs and tags take any.
  const globUsed = new Set<string>();
  const tagUsed = new Set<string>();
  for (const s of suites) {
    for (const c of s.cases) {
      for (const { glob, match } of matchers) if (match(c.id) || match(`${s.suite.name}/${c.id}`)) globUsed.add(glob);
      for (const tag of c.tags ?? []) tagUsed.add(tag);
    }
  }
  for (const { glob } of matchers) {
    if (!globUsed.has(glob)) throw new ToolgaugeError('USAGE', `--filter '${glob}' matches no case id`);
  }
  for (const tag of tags) {
    if (!tagUsed.has(tag)) throw new ToolgaugeError('USAGE', `--tag '${tag}' is on no case`);
  }
  const filtered = suites
    .map((s) => ({
      ...s,
      cases: filterCases(
        s.cases,
        (c) =>
          (matchers.length === 0 || matchers.some(({ match }) => match(c.id) || match(`${s.suite.name}/${c.id}`))) &&
          (tags.length === 0 || tags.some((t) => c.tags?.includes(t))),
      ),
    }))
    .filter((s) => s.cases.count > 0);
  if (filtered.length === 0) {
    const given = [...globs.map((g) => `--filter '${g}'`), ...tags.map((t) => `--tag '${t}'`)].join(' ');
    throw new ToolgaugeError('USAGE', `${given}: no case passes both the filters and the tags`);
  }
  return filtered;
}
