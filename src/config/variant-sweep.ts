import { ToolgaugeError } from '../errors.js';
import {
  type ConcreteVariant,
  isSweepable,
  NO_VARIANT,
  SWEEPABLE_FIELDS,
  VariantSchema,
  type VariantSpec,
} from './variant-schema.js';

/** `{distractors: {count: 1}}` with `distractors.count` set to `value` (a copy; parents made as needed). */
export function setField(spec: Record<string, unknown>, field: string, value: number): Record<string, unknown> {
  const [head, ...rest] = field.split('.');
  if (head === undefined) return spec;
  if (rest.length === 0) return { ...spec, [head]: value };
  const inner = spec[head];
  const base = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? inner : {};
  return { ...spec, [head]: setField(base as Record<string, unknown>, rest.join('.'), value) };
}

/** `name[field=value,…]`: how a point of a sweep is named in strategy labels. */
export function sweptName(base: string, point: Record<string, number>): string {
  return `${base}[${Object.entries(point)
    .map(([f, v]) => `${f}=${v}`)
    .join(',')}]`;
}

/** Every combination of the swept fields' values, fields in the order given, values in the order given. */
function points(sweep: Record<string, number[]>): Record<string, number>[] {
  let out: Record<string, number>[] = [{}];
  for (const [field, values] of Object.entries(sweep)) {
    out = out.flatMap((p) => values.map((v) => ({ ...p, [field]: v })));
  }
  return out;
}

/**
 * A configured variant as the strategies it stands for: itself, or one variant per point of its sweep (each a valid
 * variant: `distractors.count: -1` is refused naming the sweep). `where` names the variant for errors.
 */
export function expandVariant(spec: VariantSpec, where: string): ConcreteVariant[] {
  const { sweep, ...rest } = spec;
  if (!sweep || Object.keys(sweep).length === 0) return [{ name: spec.name, base: spec.name, spec: rest }];
  for (const field of Object.keys(sweep)) {
    if (!isSweepable(field)) {
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `${where}: sweep of '${field}': not a numeric variant field; sweepable: ${SWEEPABLE_FIELDS.join(', ')}`,
      );
    }
  }
  return points(sweep).map((point) => {
    let next: Record<string, unknown> = rest;
    for (const [field, value] of Object.entries(point)) next = setField(next, field, value);
    const checked = VariantSchema.safeParse(next);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `${where}: sweep point ${sweptName(spec.name, point)}: ${issue?.path.join('.') || '(variant)'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const { sweep: _none, ...concrete } = checked.data;
    return { name: sweptName(spec.name, point), base: spec.name, spec: concrete, sweep: point };
  });
}

/** `--sweep FIELD=v1,v2,…`: the field (optionally `variant.field`) and its values. */
export interface SweepFlag {
  variant?: string;
  field: string;
  values: number[];
}

/** Parses one `--sweep` value; a malformed one is a usage error saying what is valid. */
export function parseSweepFlag(text: string, variantNames: readonly string[]): SweepFlag {
  const eq = text.indexOf('=');
  const path = eq > 0 ? text.slice(0, eq).trim() : '';
  const list = eq > 0 ? text.slice(eq + 1) : '';
  const values = list.split(',').map((v) => Number(v.trim()));
  if (!path || list.trim() === '' || values.some((v) => !Number.isFinite(v))) {
    throw new ToolgaugeError(
      'USAGE',
      `--sweep ${text}: write FIELD=v1,v2,… with numbers, e.g. --sweep distractors.count=0,10,25,50 (fields: ${SWEEPABLE_FIELDS.join(', ')})`,
    );
  }
  const dot = path.indexOf('.');
  const head = dot > 0 ? path.slice(0, dot) : '';
  if (head && variantNames.includes(head) && !isSweepable(path)) {
    return { variant: head, field: path.slice(dot + 1), values };
  }
  if (!isSweepable(path)) {
    throw new ToolgaugeError(
      'USAGE',
      `--sweep ${text}: '${path}' is not a numeric variant field; sweepable: ${SWEEPABLE_FIELDS.join(', ')} (prefix a variant name to sweep one variant only: crowded.distractors.count=…)`,
    );
  }
  return { field: path, values };
}

/** The variant a sweep creates when only the unchanged catalog is in play. */
export const SWEEP_VARIANT = 'sweep';

/**
 * `--sweep` applied to the config's variants in play (`inPlay`: the names renderers run on): each flag sets the sweep
 * of its field on the variant it names, else on every variant in play. With only `none` in play, a variant named
 * `sweep` is made for it (and put in play), so `--sweep truncate=40,80` works on a config without variants.
 */
export function applySweepFlags(
  variants: readonly VariantSpec[],
  inPlay: readonly string[],
  flags: readonly SweepFlag[],
): { variants: VariantSpec[]; inPlay: string[] } {
  let out = [...variants];
  let play = [...inPlay];
  const swept = play.filter((n) => n !== NO_VARIANT);
  if (flags.some((f) => !f.variant) && swept.length === 0 && !out.some((v) => v.name === SWEEP_VARIANT)) {
    out.push({ name: SWEEP_VARIANT });
    play = [...play, SWEEP_VARIANT];
    swept.push(SWEEP_VARIANT);
  }
  for (const flag of flags) {
    const targets = flag.variant ? [flag.variant] : swept;
    out = out.map((v) => (targets.includes(v.name) ? { ...v, sweep: { ...v.sweep, [flag.field]: flag.values } } : v));
  }
  return { variants: out, inPlay: play };
}
