import { z } from 'zod';
import type { BuiltinReporter, BuiltinReporterOptions } from './builtin-reporter.js';
import { csvReporter } from './csv-reporter.js';
import { htmlReporter } from './html-reporter.js';
import { junitReporter } from './junit-reporter.js';
import { runJsonReporter } from './run-json-reporter.js';
import { summaryReporter } from './summary-reporter.js';

interface BuiltinEntry {
  /** The options a config entry may give (`{ name: html, options: { maxCases: 100 } }`). */
  options: z.ZodType<Record<string, unknown>>;
  create(options: Record<string, unknown>, defaults: BuiltinReporterOptions): BuiltinReporter;
}

const none = z.object({}).strict();

/** The built-in report writers by name, in the order they write at the end of a run. */
export const builtinReporters = {
  summary: { options: none, create: () => summaryReporter() },
  json: { options: none, create: () => runJsonReporter() },
  csv: { options: none, create: () => csvReporter() },
  junit: {
    options: z.object({ hostname: z.string().optional() }).strict(),
    create: (o, d) => junitReporter({ ...d, ...o }),
  },
  html: {
    options: z.object({ maxCases: z.number().int().min(0).optional() }).strict(),
    create: (o, d) =>
      htmlReporter({ ...d, ...(o.maxCases !== undefined ? { maxHtmlCases: o.maxCases as number } : {}) }),
  },
} satisfies Record<string, BuiltinEntry>;

export type BuiltinReporterName = keyof typeof builtinReporters;

export type { BuiltinReporter, BuiltinReporterOptions, ReportEnd } from './builtin-reporter.js';

/** Every built-in writer with its default options (what a run without a `reporters` list writes). */
export function allBuiltinReporters(defaults: BuiltinReporterOptions = {}): BuiltinReporter[] {
  return Object.values(builtinReporters).map((b: BuiltinEntry) => b.create({}, defaults));
}
