import type { ConfigOverrides } from '../config/load-config.js';
import type { Reporter } from '../contracts/reporter.js';
import type { CaseRecord, RunHeader } from '../contracts/run-log.js';
import type { CassetteFlags } from '../replay/cassettes.js';
import type { ConfigObject } from './config-input.js';
import type { RunResult } from './run-result.js';
import type { RunVerdict } from './run-verdict.js';

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
  /**
   * Each case record this run finishes, as it is written to the run log. A resumed run's kept records are not told
   * again (the reporters get them first); `done` counts them.
   */
  onRecord?(record: CaseRecord, progress: EvaluateProgress): void;
  /** Notices for a person (a server slow to start, a stale lock taken over): the CLI prints them on stderr. */
  onNote?(line: string): void;
}

/** The gate's verdict on the run (the same for every run the library makes). */
export type EvaluateVerdict = RunVerdict;

/** What a finished (or interrupted) eval returns: the run, and how many cases it had to run. */
export interface EvaluateResult extends RunResult {
  /** How many cases the run had to run. */
  planned: number;
}
