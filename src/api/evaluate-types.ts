import type { ConfigOverrides } from '../config/load-config.js';
import type { Reporter } from '../contracts/reporter.js';
import type { CaseRecord, GateCheck, RunHeader } from '../contracts/run-log.js';
import type { CassetteFlags } from '../replay/cassettes.js';
import type { CompareResult } from '../report/compare.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import type { ConfigObject } from './config-input.js';

/**
 * What to run: the config (a file's path or an object) and what the eval command's flags override, one field per flag.
 * Paths given here (suites, out, resume, cassettes) are relative to the current folder, as on the command line.
 */
export interface EvaluateOptions extends ConfigOverrides, CassetteFlags {
  /** A config file's path (default: toolgauge.config.yaml in the current folder), or the config as an object. */
  config?: string | ConfigObject;
  /** The folder a config object's paths (suites, out, plugins, the baseline) are relative to (default: the current one). */
  baseDir?: string;
  /** `--filter <glob>`: only the case ids (or suite/case) matching any. */
  filter?: string[];
  /** `--tag <tag>`: only the cases having any. */
  tag?: string[];
  /** `--resume <run-dir>`: continue that interrupted run, skipping its finished cases. */
  resume?: string;
  /** `--shard i/n`: only the cases whose hash falls in shard i of n. */
  shard?: string;
  /** Re-run a finished run's config (from its header) instead of reading a config (what `replay` does). */
  baseRun?: RunHeader;
  /** Only these plan keys (what `replay --failures` re-runs). */
  onlyKeys?: ReadonlySet<string>;
  /** What part of the plan onlyKeys is, for the start line (`the cases that failed in <run>`). */
  subset?: string;
}

/** What the run is, told once before its first case (the CLI prints it as its first line). */
export interface EvaluateStart {
  runId: string;
  /** Absolute path of the run folder. */
  runDir: string;
  header: RunHeader;
  /** How many cases this run has to run (a resumed run's finished ones included). */
  total: number;
  /** How many cases the whole plan has (more than `total` for a shard, a filter-less replay subset). */
  full: number;
  suites: number;
  strategies: number;
  providers: number;
  repeats: number;
  /** The part of the plan this run is, when it is a part: `shard 1/2`, `the cases that failed in <run>`. */
  part?: string;
}

/** How far the run is, with each record. */
export interface EvaluateProgress {
  /** Records finished so far, this one included (a resumed run's kept records count). */
  done: number;
  total: number;
}

/**
 * How a caller follows and steers a run. Every hook is optional and synchronous; a hook that throws stops the run
 * (the finished records are kept) and evaluate() rejects with REPORTER_FAILED.
 */
export interface EvaluateControl {
  /**
   * The first stage of an interruption, as a first Ctrl-C: no new case starts; the cases in flight finish (within
   * their timeouts) and are saved, then the reports are written and the result has exit code 130.
   */
  signal?: AbortSignal;
  /**
   * The second stage, as a second Ctrl-C: the cases in flight are aborted and not saved (resume runs them again);
   * the finished ones are kept and reported. It may fire without `signal`.
   */
  abortSignal?: AbortSignal;
  /** Reporters fed with every record, after those the config's `reporters` names (the public Reporter contract). */
  reporters?: Reporter[];
  /** Once, before the first case. */
  onStart?(start: EvaluateStart): void;
  /** Each case record as it is written to the run log (a resumed run's kept records first). */
  onRecord?(record: CaseRecord, progress: EvaluateProgress): void;
  /** Notices for a person (a server slow to start, a stale lock taken over): the CLI prints them on stderr. */
  onNote?(line: string): void;
}

/** The gate's verdict on the run. */
export interface EvaluateVerdict {
  /** 0 passed, 1 a threshold failed or a cell regressed, 3 infrastructure errors beyond the limit, 130 interrupted. */
  exitCode: number;
  /** Whether the gate was judged (not when the run was interrupted). */
  judged: boolean;
  /** The gate's lines, as the CLI prints them on stderr (none when not judged). */
  lines: string[];
  /** Every check made, passed or failed (junit.xml's gate suite). */
  checks: GateCheck[];
}

/** What a finished (or interrupted) run returns. */
export interface EvaluateResult {
  runId: string;
  /** Absolute path of the run folder, and of its run log. */
  runDir: string;
  runLog: string;
  header: RunHeader;
  /** The run stopped before every planned case finished (signal, abortSignal): resume it with `{ resume: runDir }`. */
  interrupted: boolean;
  /** How many cases the run had to run. */
  planned: number;
  /** The tallies of every record the run log holds (the numbers behind every report). */
  aggregate: RunAggregate;
  /** The text of summary.md, and its first part (what `eval -q` prints). */
  summary: string;
  brief: string;
  /** The comparison with the baseline; null: no baseline file; undefined: not compared. */
  comparison?: CompareResult | null;
  verdict: EvaluateVerdict;
  /** The same as verdict.exitCode: what `toolgauge eval` exits with. */
  exitCode: number;
}
