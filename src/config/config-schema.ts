import { z } from 'zod';
import { VariantSchema } from './variant-schema.js';

const Options = z.record(z.string(), z.unknown());

/** A renderer strategy: a name (built-in or a file path) plus options. Each distinct pair is its own strategy. */
export const RendererEntrySchema = z.union([
  z.string().min(1),
  z
    .object({
      name: z
        .string()
        .min(1)
        .describe('Built-in renderer name, or a path (relative to the config file) to a module exporting `renderer`'),
      options: Options.optional(),
      label: z.string().optional().describe('How reports name this strategy (default: name plus options)'),
      variants: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe(
          'Catalog variants (names from `variants:`, or none for the catalog unchanged) this renderer runs on, each its own strategy (default: [none])',
        ),
      providers: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe(
          'Provider labels or globs this renderer runs with (default: every provider); its other cells of the matrix stay empty',
        ),
    })
    .strict(),
]);

/** A provider: `openai:<model>`, `anthropic:<model>`, `ollama:<model>`, `openai-compatible:<model>`, `sim:<persona>`. */
export const ProviderEntrySchema = z.union([
  z.string().min(1),
  z
    .object({
      id: z.string().min(1),
      options: Options.optional(),
      label: z.string().optional(),
    })
    .strict(),
]);

/** A reporter: a built-in name (`default` = every built-in writer), or a path to a module exporting `reporter`. */
export const ReporterEntrySchema = z.union([
  z.string().min(1),
  z
    .object({
      name: z.string().min(1).describe('Built-in reporter (default, summary, json, csv, junit, html) or a module path'),
      options: Options.optional(),
    })
    .strict(),
]);

export const GateSchema = z
  .object({
    minPassRate: z
      .record(z.string(), z.number().min(0).max(1))
      .optional()
      .describe('Minimum pass rate per grader over the whole run, e.g. { parseable: 0.8 }'),
    maxInfraErrorRate: z
      .number()
      .min(0)
      .max(1)
      .default(0.2)
      .describe('Above this share of errored cases the run exits 3 (infrastructure), whatever the pass rates'),
    thresholds: z
      .array(
        z
          .object({
            grader: z.string().min(1),
            min: z.number().min(0).max(1),
            renderer: z.string().min(1).optional().describe('Renderer label or glob (default: all)'),
            provider: z.string().min(1).optional().describe('Provider label or glob (default: all)'),
          })
          .strict(),
      )
      .optional()
      .describe('Minimum pass rate of a grader in every matching renderer × provider cell'),
    baseline: z
      .string()
      .min(1)
      .optional()
      .describe('Baseline to compare with, relative to the config file (default reports/baseline.json); "none" skips'),
    maxRegression: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Largest drop in a cell pass rate against the baseline tolerated even when significant (default 0.05)'),
    alpha: z
      .number()
      .gt(0)
      .lt(1)
      .optional()
      .describe('Significance level of the regression test, Holm-corrected over all cells × graders (default 0.05)'),
  })
  .strict();

export const ConfigSchema = z
  .object({
    $schema: z.string().optional(),
    suites: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Suite YAML files, relative to the config file, or bundled suite names (excel, economist, coder); may be left to --suite',
      ),
    renderers: z
      .array(RendererEntrySchema)
      .min(1)
      .default(['full-details', 'native-functions'])
      .describe('Renderer strategies (default: full-details and native-functions)'),
    variants: z
      .array(VariantSchema)
      .optional()
      .describe(
        'Catalog variants: named transforms of every case catalog (distractors, descriptions, order, strip, truncate, sweep); a renderer runs on those its `variants` list names',
      ),
    providers: z.array(ProviderEntrySchema).default([]).describe('Providers; may be left to --provider'),
    graders: z
      .array(z.string().min(1))
      .optional()
      .describe('Graders to run (default: all built-in); a grader only grades the cases it applies to'),
    reporters: z
      .array(ReporterEntrySchema)
      .optional()
      .describe(
        'Report writers (default: every built-in); run.json is always written; paths are relative to the config file',
      ),
    repeats: z.number().int().min(1).max(1000).default(1),
    concurrency: z.number().int().min(1).max(1024).default(4),
    seed: z.number().int().default(1),
    maxTurns: z.number().int().min(1).max(50).default(6),
    timeouts: z
      .object({
        turnMs: z.number().int().positive().default(60_000),
        caseMs: z.number().int().positive().default(300_000),
        toolMs: z.number().int().positive().default(30_000),
        serverStartMs: z
          .number()
          .int()
          .positive()
          .default(30_000)
          .describe('How long an MCP server may take to start and list its tools (initialize and tools/list)'),
      })
      .strict()
      .default({ turnMs: 60_000, caseMs: 300_000, toolMs: 30_000, serverStartMs: 30_000 }),
    out: z.string().default('reports').describe('Folder that receives reports/<run-id>/, relative to the config file'),
    gate: GateSchema.default({ maxInfraErrorRate: 0.2 }),
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;
export type RendererEntry = z.infer<typeof RendererEntrySchema>;
export type ProviderEntry = z.infer<typeof ProviderEntrySchema>;
