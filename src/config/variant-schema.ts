import { z } from 'zod';

/** The name of the variant that leaves the catalog as the servers list it; every renderer runs on it by default. */
export const NO_VARIANT = 'none';

/** What a variant may strip from the tools before the renderer sees them. */
export const STRIP_PARTS = ['descriptions', 'parameter-descriptions', 'enums', 'defaults'] as const;
export type StripPart = (typeof STRIP_PARTS)[number];

/** The orders a variant may present the tools in; without `order` each renderer sorts them by server and name. */
export const TOOL_ORDERS = ['as-listed', 'alphabetical', 'shuffled'] as const;
export type ToolOrder = (typeof TOOL_ORDERS)[number];

/** Where distractor tools come from, and how many a case's catalog gains. */
export const DistractorsSchema = z
  .object({
    from: z
      .array(z.string().min(1))
      .min(1)
      .describe(
        'Sources of extra tools: a bundled server (excel, economist, coder), a bundled distractor catalog (office, everyday), a suite (bundled name or .yaml path) or a tools file (.json: MCP, OpenAI or Anthropic tool definitions); paths are relative to the config file',
      ),
    count: z.number().int().min(0).max(10_000).describe('How many extra tools each case sees'),
    seed: z
      .number()
      .int()
      .optional()
      .describe('Seed of the draw (default: the variant seed); a larger count keeps the tools of a smaller one'),
  })
  .strict();

/** A variant name goes into strategy labels, file-free: letters, digits and `._-`. */
const VariantName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a variant name is letters, digits, ".", "_" or "-" (at most 64)');

/**
 * A catalog variant: named transforms applied to every case's catalog before the renderer sees it. Each
 * (renderer, options, variant) is its own strategy.
 */
export const VariantSchema = z
  .object({
    name: VariantName.refine((n) => n !== NO_VARIANT, `'${NO_VARIANT}' is the catalog unchanged; pick another name`),
    distractors: DistractorsSchema.optional(),
    descriptions: z
      .string()
      .min(1)
      .optional()
      .describe('A YAML or JSON file of description overrides per tool and per parameter, relative to the config file'),
    order: z.enum(TOOL_ORDERS).optional(),
    strip: z.array(z.enum(STRIP_PARTS)).optional(),
    truncate: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe('Cut every tool and parameter description to this many characters'),
    seed: z.number().int().optional().describe('Seed of `order: shuffled` and of the distractor draw (default 1)'),
    sweep: z
      .record(z.string(), z.array(z.number()).min(1))
      .optional()
      .describe('Numeric fields to sweep, e.g. { distractors.count: [0, 10, 25, 50] }: one strategy per value'),
  })
  .strict();

export type VariantSpec = z.infer<typeof VariantSchema>;

/** The variant fields a sweep may vary: every numeric field of a variant. */
export const SWEEPABLE_FIELDS = ['distractors.count', 'distractors.seed', 'truncate', 'seed'] as const;
export type SweepableField = (typeof SWEEPABLE_FIELDS)[number];

export function isSweepable(field: string): field is SweepableField {
  return (SWEEPABLE_FIELDS as readonly string[]).includes(field);
}

/** A variant after its sweep was expanded: one value per swept field, and the variant it came from. */
export interface ConcreteVariant {
  /** How labels name it: `crowded`, or `crowded[distractors.count=25]` for one point of a sweep. */
  name: string;
  /** The variant as configured (its name before the sweep). */
  base: string;
  spec: Omit<VariantSpec, 'sweep'>;
  /** The swept fields and this point's values (absent: not swept). */
  sweep?: Record<string, number>;
}
