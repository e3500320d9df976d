import type { ConcreteVariant } from '../config/variant-schema.js';
import type { Catalog, ToolDef } from '../contracts/tool.js';
import { ToolgaugeError } from '../errors.js';
import { hashOf } from '../util/canonical-json.js';
import { seededRandom } from '../util/rng.js';
import { type DescriptionOverrides, overrideOf, overrideTool, stripTool, truncateTool } from './tool-transforms.js';

/** A variant with what it needs from files: the distractor candidates and the description overrides. */
export interface ResolvedVariant {
  variant: ConcreteVariant;
  /** Every distractor source's tools, in the order the sources are listed (first of a name wins). */
  pool?: readonly ToolDef[];
  overrides?: DescriptionOverrides;
}

/** A case's catalog as a variant presents it, and the same tools as their servers define them. */
export interface VariantView {
  /** What the renderer sees. */
  catalog: Catalog;
  /**
   * The same tools in the same order, with their schemas and descriptions as served (distractors marked): what calls
   * are routed and graded against. A variant changes what the model reads, never what the server accepts.
   */
  tools: ToolDef[];
}

/** The seed of a variant's draws when it names none. */
const DEFAULT_SEED = 1;

/**
 * The distractors a suite's cases gain: a seeded permutation of the pool, without the tools whose names the suite
 * already has, cut to `count`. The permutation does not depend on `count`, so a larger count keeps every tool of a
 * smaller one (a sweep adds tools, it never swaps them). Throws when the pool is too small.
 */
export function drawDistractors(
  pool: readonly ToolDef[],
  count: number,
  seed: number,
  taken: ReadonlySet<string>,
  variant: string,
): ToolDef[] {
  if (count === 0) return [];
  const eligible = permuted(pool, seededRandom('distractors', seed)).filter((t) => !taken.has(t.name));
  if (eligible.length < count) {
    throw new ToolgaugeError(
      'CONFIG_INVALID',
      `variant ${variant}: distractors.count ${count} but its sources offer only ${eligible.length} tools the suite does not already have; lower the count or add sources to distractors.from`,
    );
  }
  return eligible.slice(0, count).map((t) => ({ ...t, distractor: true }));
}

/** A seeded Fisher–Yates permutation (a copy). */
export function permuted<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * A case's catalog (already filtered) under a variant: description overrides, distractors (from `pool`, never a
 * name in `suiteNames`, the suite's whole catalog), stripped parts, truncated descriptions, then the order. Pure:
 * the same input gives the same catalog, byte for byte.
 */
export function applyVariant(
  catalog: Catalog,
  resolved: ResolvedVariant,
  suiteNames: ReadonlySet<string>,
): VariantView {
  const { spec } = resolved.variant;
  const seed = spec.seed ?? DEFAULT_SEED;
  const distractors = spec.distractors
    ? drawDistractors(
        resolved.pool ?? [],
        spec.distractors.count,
        spec.distractors.seed ?? seed,
        suiteNames,
        resolved.variant.name,
      )
    : [];
  let truth = [...catalog.tools, ...distractors];
  switch (spec.order) {
    case 'alphabetical':
      truth = [...truth].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.server < b.server ? -1 : 1));
      break;
    case 'shuffled':
      truth = permuted(truth, seededRandom('order', seed));
      break;
    default:
      break;
  }
  const presented = truth.map((t) => present(t, resolved));
  return {
    catalog: {
      ...catalog,
      tools: presented,
      hash: hashOf(presented),
      ...(spec.order ? { ordered: true } : {}),
    },
    tools: truth,
  };
}

/** One tool as the variant shows it: overridden, stripped, truncated. */
function present(tool: ToolDef, resolved: ResolvedVariant): ToolDef {
  const { spec } = resolved.variant;
  let out = resolved.overrides ? overrideTool(tool, overrideOf(resolved.overrides, tool)) : tool;
  if (spec.strip?.length) out = stripTool(out, spec.strip);
  if (spec.truncate !== undefined) out = truncateTool(out, spec.truncate);
  return out;
}
