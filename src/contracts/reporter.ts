import type { CaseRecord, RunHeader } from './run-log.js';

/** What a reporter is told when a run starts, before any case. */
export interface RunStart {
  header: RunHeader;
  /** Absolute path of the run folder (`reports/<run-id>/`), where run.jsonl and the built-in reports go. */
  runDir: string;
}

/** Pass counts of one grader in one cell. */
export interface GraderSummary {
  pass: number;
  n: number;
  rate: number;
  /** Wilson 95% interval of `rate`. */
  wilson95: [number, number];
  /** pass^k over the repeats (null with a single repeat). */
  passHatK: number | null;
}

/** One renderer × provider cell of the matrix. */
export interface CellSummary {
  renderer: string;
  provider: string;
  simulated: boolean;
  cases: number;
  errors: number;
  promptTokensMean: number;
  /** Summed as the providers reported them: cached = prompt-cache reads, cacheWrite = writes (both part of input). */
  usage: { input: number; output: number; cached: number; cacheWrite: number };
  graders: Record<string, GraderSummary>;
}

/** What a reporter is told when a run ends: the numbers of run.json, and the gate's verdict when it was judged. */
export interface RunEnd {
  header: RunHeader;
  runDir: string;
  /** Stopped by Ctrl-C before every case finished (the gate is then not judged). */
  interrupted: boolean;
  /** Case records seen (errors included) and how many of them are infrastructure errors. */
  total: number;
  errors: number;
  cells: CellSummary[];
  /** Absent when the run was interrupted. `exitCode` is what the command exits with. */
  gate?: { exitCode: number; lines: string[] };
}

/**
 * A report writer. Every hook is optional and may return a promise, which is awaited before the run ends. The
 * hooks of one reporter are called in order: onRunStart once, onCase once per case record (a resumed run's earlier
 * records, and every record of `toolgauge report`, `regrade` and `merge`, go by first), onRunEnd once. Reporters
 * read records; they never call a model. A reporter that throws fails the command with exit code 3.
 */
export interface Reporter {
  /** How errors name the reporter (default: the name or path it was configured with). */
  name?: string;
  onRunStart?(run: RunStart): void | Promise<void>;
  onCase?(record: CaseRecord): void | Promise<void>;
  onRunEnd?(run: RunEnd): void | Promise<void>;
}

/**
 * What a reporter module exports as `reporter` (or default): a Reporter, or a function that makes one from the
 * entry's `options` in the config (`reporters: [{ name: ./my-reporter.ts, options: {...} }]`), called once per run.
 */
export type ReporterExport = Reporter | ((options: Record<string, unknown>) => Reporter);
