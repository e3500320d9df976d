import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { RendererEntry } from '../config/config-schema.js';
import { loadYamlFile, type SemanticIssue } from '../config/load-yaml.js';
import { VariantSchema, type VariantSpec } from '../config/variant-schema.js';
import { labelFor } from '../plugins/index.js';
import { DEFAULT_SPACE } from './default-space.js';

/** Candidates a space may expand to: past this, a race's first round alone is a grid. */
export const MAX_CANDIDATES = 200;

const GridValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * One renderer of a space: a name (a string alone is a name), fixed options, and options to try (`grid`: each value,
 * in every combination). Read as one object shape, so a problem is named at its field rather than as a union mismatch.
 */
export const SpaceRendererSchema = z.preprocess(
  (v) => (typeof v === 'string' ? { name: v } : v),
  z
    .object({
      name: z.string().min(1).describe('Built-in renderer name, or a path (relative to the space file) to a renderer'),
      options: z.record(z.string(), z.unknown()).optional().describe('Options every candidate of this renderer has'),
      grid: z
        .record(z.string(), z.array(GridValue).min(1))
        .optional()
        .describe('Options to try: each listed value, in every combination (one candidate each)'),
      variants: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe('Catalog variants (names from `variants:`, or none) each candidate runs on, one candidate each'),
    })
    .strict(),
);

/** A tune's search space: renderers × options × catalog variants. */
export const SpaceSchema = z
  .object({
    $schema: z.string().optional(),
    renderers: z.array(SpaceRendererSchema).min(1),
    variants: z.array(VariantSchema).optional(),
  })
  .strict();

export type Space = z.infer<typeof SpaceSchema>;

/** A space as the config's renderer entries (one per candidate before variants), and where each came from. */
export interface LoadedSpace {
  /** The space file, absolute (undefined: the built-in default). */
  file: string | undefined;
  /** Paths in the space (renderer modules, variant sources) are relative to this folder. */
  dir: string;
  space: Space;
  entries: RendererEntry[];
  variants: VariantSpec[];
  /** Where entry i comes from, for errors: `file:line:col: renderers[j]`. */
  where: (i: number) => string;
  whereVariant: (i: number) => string;
}

/** Reads a space file (zod-checked, problems located to line:column), or the default space. */
export function loadSpace(file: string | undefined, cwd: string): LoadedSpace {
  if (!file) {
    return {
      ...expandSpace(DEFAULT_SPACE),
      file: undefined,
      dir: cwd,
      space: DEFAULT_SPACE,
      where: (i) => `the default space: renderers[${i}]`,
      whereVariant: (i) => `the default space: variants[${i}]`,
    };
  }
  const path = resolve(cwd, file);
  const { data, locate } = loadYamlFile(path, SpaceSchema, 'CONFIG_INVALID', checkSpace);
  const expanded = expandSpace(data);
  return {
    ...expanded,
    file: path,
    dir: dirname(path),
    space: data,
    where: (i) => locate(['renderers', expanded.at[i] ?? 0]),
    whereVariant: (i) => locate(['variants', i]),
  };
}

/** What the schema cannot say: a grid option also fixed, a variant named twice, too many candidates. */
function checkSpace(space: Space): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  space.renderers.forEach((r, i) => {
    for (const key of Object.keys(r.grid ?? {})) {
      if (r.options && key in r.options) {
        issues.push({
          path: ['renderers', i, 'grid', key],
          message: `'${key}' is both a fixed option and a grid option; keep it in one of them`,
          key: true,
        });
      }
    }
  });
  const names = new Set<string>();
  space.variants?.forEach((v, i) => {
    if (names.has(v.name))
      issues.push({ path: ['variants', i, 'name'], message: `variant '${v.name}' is defined twice` });
    names.add(v.name);
  });
  const count = expandSpace(space).entries.reduce(
    (n, e) => n + (typeof e === 'string' ? 1 : (e.variants?.length ?? 1)),
    0,
  );
  if (count > MAX_CANDIDATES) {
    issues.push({
      path: ['renderers'],
      message: `the space expands to ${count} candidates before sweeps (at most ${MAX_CANDIDATES}); narrow the grids`,
    });
  }
  return issues;
}

/** Every grid point of every renderer as a config renderer entry (variants stay a list: resolveStrategies expands them). */
export function expandSpace(space: Space): { entries: RendererEntry[]; variants: VariantSpec[]; at: number[] } {
  const entries: RendererEntry[] = [];
  const at: number[] = [];
  space.renderers.forEach((r, i) => {
    if (!r.options && !r.grid && !r.variants) {
      entries.push(r.name);
      at.push(i);
      return;
    }
    for (const point of gridPoints(r.grid ?? {})) {
      const options = { ...(r.options ?? {}), ...point };
      const entry: RendererEntry = { name: r.name };
      if (Object.keys(options).length) entry.options = options;
      if (r.variants) entry.variants = r.variants;
      entries.push(entry);
      at.push(i);
    }
  });
  return { entries, variants: space.variants ?? [], at };
}

/** The product of a grid's values, keys in the order given (the first varies slowest). */
function gridPoints(grid: Record<string, readonly (string | number | boolean)[]>): Record<string, unknown>[] {
  let points: Record<string, unknown>[] = [{}];
  for (const [key, values] of Object.entries(grid)) {
    points = points.flatMap((p) => values.map((v) => ({ ...p, [key]: v })));
  }
  return points;
}

/** A candidate's label before its variant, as reports name it. */
export function entryLabel(entry: RendererEntry): string {
  return typeof entry === 'string' ? entry : labelFor(entry.name, entry.options ?? {});
}
