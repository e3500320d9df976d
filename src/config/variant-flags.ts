import { ToolgaugeError } from '../errors.js';
import type { Config, RendererEntry } from './config-schema.js';
import { parseYamlText } from './load-yaml.js';
import { NO_VARIANT, VariantSchema, type VariantSpec } from './variant-schema.js';
import { applySweepFlags, parseSweepFlag, SWEEP_VARIANT } from './variant-sweep.js';

/** The variants a renderer entry runs on: its own list, or the catalog unchanged. */
export function entryVariants(entry: RendererEntry): string[] {
  return typeof entry === 'string' ? [NO_VARIANT] : (entry.variants ?? [NO_VARIANT]);
}

function withVariants(entry: RendererEntry, variants: string[]): RendererEntry {
  const base = typeof entry === 'string' ? { name: entry } : entry;
  const same = variants.length === 1 && variants[0] === NO_VARIANT;
  if (same) {
    const { variants: _dropped, ...rest } = base;
    return Object.keys(rest).length === 1 ? rest.name : rest;
  }
  return { ...base, variants };
}

/**
 * `--variant NAME|{inline variant}` (repeatable): every renderer runs on these variants instead of its own list (an
 * inline one, a YAML flow mapping such as `{name: crowded, distractors: {from: [coder], count: 25}}`, is added to the
 * config's variants). Then `--sweep FIELD=v1,v2,…` (repeatable) sweeps a field of the variants in play. The result
 * is the effective config the run header keeps, so replay and regrade rebuild the same strategies from it.
 */
export function applyVariantFlags(config: Config, flags: { variants?: string[]; sweeps?: string[] }): Config {
  const given = flags.variants ?? [];
  const sweeps = flags.sweeps ?? [];
  if (given.length === 0 && sweeps.length === 0) return config;
  let variants = [...(config.variants ?? [])];
  const names: string[] = [];
  for (const text of given) {
    if (text.trimStart().startsWith('{')) {
      const spec = inlineVariant(text);
      variants = [...variants.filter((v) => v.name !== spec.name), spec];
      names.push(spec.name);
    } else names.push(text);
  }
  const known = [NO_VARIANT, ...variants.map((v) => v.name)];
  for (const n of names) {
    if (!known.includes(n)) {
      throw new ToolgaugeError(
        'USAGE',
        `--variant ${n}: no such variant; defined: ${known.join(', ')} (or give one inline: --variant '{name: crowded, distractors: {from: [coder], count: 25}}')`,
      );
    }
  }
  let renderers = names.length > 0 ? config.renderers.map((r) => withVariants(r, unique(names))) : config.renderers;
  if (sweeps.length > 0) {
    const inPlay = unique(renderers.flatMap(entryVariants));
    const parsed = sweeps.map((s) =>
      parseSweepFlag(
        s,
        variants.map((v) => v.name),
      ),
    );
    for (const f of parsed) {
      if (f.variant && !inPlay.includes(f.variant)) {
        throw new ToolgaugeError(
          'USAGE',
          `--sweep ${f.variant}.${f.field}: variant ${f.variant} is run by no renderer; add --variant ${f.variant}`,
        );
      }
    }
    const swept = applySweepFlags(variants, inPlay, parsed);
    variants = swept.variants;
    if (swept.inPlay.includes(SWEEP_VARIANT) && !inPlay.includes(SWEEP_VARIANT)) {
      // only the unchanged catalog was in play: the sweep's points replace it, unless --variant none asked for it
      const keepNone = names.includes(NO_VARIANT);
      renderers = renderers.map((r) =>
        withVariants(r, keepNone ? [...entryVariants(r), SWEEP_VARIANT] : [SWEEP_VARIANT]),
      );
    }
  }
  return { ...config, variants, renderers };
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** A variant given inline on the command line (a YAML flow mapping), validated; a bad one is a usage error. */
export function inlineVariant(text: string): VariantSpec {
  let value: unknown;
  try {
    value = parseYamlText(text);
  } catch (e) {
    throw new ToolgaugeError(
      'USAGE',
      `--variant ${text}: not a YAML mapping (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const parsed = VariantSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ToolgaugeError(
      'USAGE',
      `--variant ${text}: ${issue?.path.join('.') || '(variant)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}
