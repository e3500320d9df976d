import { loadDescriptionOverrides, loadDistractorPool } from '../catalog/variant-sources.js';
import { NO_VARIANT, type VariantSpec } from '../config/variant-schema.js';
import { expandVariant } from '../config/variant-sweep.js';
import type { ToolDef } from '../contracts/tool.js';
import { ToolgaugeError } from '../errors.js';
import type { ResolvedVariant } from '../presentation/apply-variant.js';

/** Where variant i of the config is defined, for error messages. */
export type VariantWhere = (i: number) => string;

/**
 * The config's variants, resolved on demand: each expanded into its sweep's points and given what it reads from
 * files (the distractor candidates, listed once per list of sources; the description overrides, read once per file).
 */
export class VariantResolver {
  private readonly done = new Map<string, ResolvedVariant[]>();
  private readonly pools = new Map<string, Promise<ToolDef[]>>();

  constructor(
    private readonly list: readonly VariantSpec[],
    private readonly baseDir: string,
    private readonly where: VariantWhere,
  ) {
    const seen = new Map<string, number>();
    for (const [i, v] of list.entries()) {
      const first = seen.get(v.name);
      if (first !== undefined) {
        throw new ToolgaugeError('CONFIG_INVALID', `${where(i)}: variant name '${v.name}' is also ${where(first)}`);
      }
      seen.set(v.name, i);
    }
  }

  /** The variant named `name` as the strategies it stands for (one per point of its sweep). */
  async resolve(name: string, usedAt: () => string): Promise<ResolvedVariant[]> {
    const known = this.done.get(name);
    if (known) return known;
    const i = this.list.findIndex((v) => v.name === name);
    const spec = this.list[i];
    if (!spec) {
      const names = [NO_VARIANT, ...this.list.map((v) => v.name)];
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `${usedAt()}: unknown variant '${name}'; defined: ${names.join(', ')} (add it under \`variants:\`)`,
      );
    }
    const where = this.where(i);
    const overrides = spec.descriptions ? loadDescriptionOverrides(spec.descriptions, this.baseDir, where) : undefined;
    const pool = spec.distractors ? await this.pool(spec.distractors.from, where) : undefined;
    const resolved = expandVariant(spec, where).map(
      (variant): ResolvedVariant => ({
        variant,
        ...(pool ? { pool } : {}),
        ...(overrides ? { overrides } : {}),
      }),
    );
    this.done.set(name, resolved);
    return resolved;
  }

  private pool(from: readonly string[], where: string): Promise<ToolDef[]> {
    const key = JSON.stringify(from);
    let p = this.pools.get(key);
    if (!p) {
      p = loadDistractorPool(from, this.baseDir, where);
      this.pools.set(key, p);
    }
    return p;
  }
}
