import type { Reporter } from '../contracts/reporter.js';
import { ToolgaugeError } from '../errors.js';
import { loadPluginWithOptions, type Where } from '../plugins/plugin-file.js';
import { isPluginPath } from '../util/plugin-path.js';
import type { BuiltinReporter, BuiltinReporterOptions } from './reporters/index.js';

/** A `reporters:` entry of the config: a built-in name, `default`, or a path; with options. */
export type ReporterEntry = string | { name: string; options?: Record<string, unknown> | undefined };

/** The reporters of a run: the built-in writers (synchronous) and the custom ones, in the configured order. */
export interface ResolvedReporters {
  builtins: BuiltinReporter[];
  custom: { name: string; reporter: Reporter }[];
}

/** What the built-in names expand to: every built-in writer. */
export const DEFAULT_REPORTER = 'default';

/** The built-in writers (./reporters/), loaded on first use. */
const builtins = async () => (await import('./reporters/index.js')).builtinReporters;

/**
 * The config's `reporters` (absent: every built-in writer). `default` stands for every built-in; a path names a
 * module exporting `reporter` (a Reporter, or a function of the entry's options making one; checked against the
 * contract). run.json is always written: `compare`, `baseline update` and `eval`'s next comparison read it.
 */
export async function resolveReporters(
  entries: ReporterEntry[] | undefined,
  baseDir: string,
  where: Where,
  defaults: BuiltinReporterOptions = {},
): Promise<ResolvedReporters> {
  const known = await builtins();
  const out: ResolvedReporters = { builtins: [], custom: [] };
  const seen = new Set<string>();
  const addBuiltin = (name: keyof typeof known, options: Record<string, unknown>, at: () => string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const entry = known[name];
    const parsed = entry.options.safeParse(options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `${at()}: reporter '${name}': ${issue?.path.length ? `options.${issue.path.join('.')}: ` : ''}${issue?.message}`,
      );
    }
    out.builtins.push(entry.create(parsed.data, defaults));
  };
  for (const [i, entry] of (entries ?? [DEFAULT_REPORTER]).entries()) {
    const { name, options = {} } = typeof entry === 'string' ? { name: entry } : entry;
    const at = () => where(i);
    if (name === DEFAULT_REPORTER) {
      for (const n of Object.keys(known) as (keyof typeof known)[]) addBuiltin(n, {}, at);
    } else if (Object.hasOwn(known, name)) {
      addBuiltin(name as keyof typeof known, options, at);
    } else if (isPluginPath(name)) {
      const reporter = await loadPluginWithOptions<Reporter>('reporter', name, baseDir, options, at);
      out.custom.push({ name: reporter.name ?? name, reporter });
    } else {
      throw new ToolgaugeError(
        'UNKNOWN_REPORTER',
        `${at()}: unknown reporter '${name}'; valid: ${[DEFAULT_REPORTER, ...Object.keys(known)].join(', ')}, or a path to a module exporting \`reporter\``,
      );
    }
  }
  addBuiltin('json', {}, () => where(0));
  return out;
}
