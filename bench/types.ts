/** One benchmark figure, as every bench/*.ts returns it and bench/run.ts tabulates it. */
export interface BenchResult {
  name: string;
  /** The measured figure; null when it could not be measured (see `detail`). */
  value: number | null;
  unit: string;
  /** The target in words, e.g. "≥ 50,000 cases/s". */
  target: string;
  met: boolean | null;
  /** What was run and any supporting numbers. */
  detail?: string;
  /** A table of its own, printed after the figures (e.g. the eval matrix). */
  section?: { title: string; markdown: string };
}
